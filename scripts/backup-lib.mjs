// Backups of the database and the uploaded files, and their restore (README, 'Back-ups').
// `npm run backup -- DIR` works while the app runs and writes: SQLite's online backup API copies a
// consistent snapshot; the uploads are copied before it and again after it, so every file a
// backed-up row names is there. A manifest lists every file with its size and SHA-256.
// `npm run restore -- DIR` checks it (no path out of the backup), refuses while the app runs,
// checks the database's integrity and that it is Lagerfeuer's, puts the uploads back into their
// folder and the database last. A backup is readable by the app's user only (0700/0600), as the
// data folder is.
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { processNote, realDatabasePath, takeAppLock } from "./running-app.mjs";

export const MANIFEST = "manifest.json";
const DATABASE_FILE = "lagerfeuer.db";
/** Below the uploads folder: the files a restore replaced (never served, never backed up). */
const KEPT_UPLOADS = ".vor-wiederherstellung";

export function paths(env = process.env) {
  const databasePath = path.resolve(env.DATABASE_PATH || "data/lagerfeuer.db");
  return { databasePath, uploadsDir: path.resolve(env.UPLOADS_DIR || "uploads") };
}

function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function walk(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === ".tmp" || entry.name === KEPT_UPLOADS ? [] : walk(full, base);
    return [path.relative(base, full)];
  });
}

/**
 * @param {{ beforeSnapshot?: () => void, afterSnapshot?: () => void }} [steps] what happens meanwhile (tests)
 */
export async function backup(target, env = process.env, steps = {}) {
  const { databasePath, uploadsDir } = paths(env);
  if (!existsSync(databasePath)) throw new Error(`Keine Datenbank unter ${databasePath}. Bitte DATABASE_PATH so setzen wie für die App.`);
  // Without it the backup would hold no files, and its restore would delete every upload.
  if (!existsSync(uploadsDir)) throw new Error(`Kein Upload-Ordner unter ${uploadsDir}. Bitte UPLOADS_DIR so setzen wie für die App.`);
  const dir = path.resolve(target);
  // Inside the uploads, each backup would copy the ones before it (operations review).
  if (`${dir}${path.sep}`.startsWith(`${uploadsDir}${path.sep}`)) {
    throw new Error(`Die Sicherung darf nicht im Upload-Ordner ${uploadsDir} liegen: Jede weitere Sicherung enthielte sonst die früheren. Bitte einen Ordner außerhalb wählen.`);
  }
  if (existsSync(dir) && readdirSync(dir).length) throw new Error(`Der Ordner ${dir} ist nicht leer.`);
  const made = !existsSync(dir);
  try {
    return await backupInto(dir, databasePath, uploadsDir, steps);
  } catch (error) {
    // Nothing half-written stays behind to be taken for a backup.
    if (made) rmSync(dir, { recursive: true, force: true });
    else for (const entry of readdirSync(dir)) rmSync(path.join(dir, entry), { recursive: true, force: true });
    throw error;
  }
}

/** Pages per step of SQLite's backup: all there are. */
const ALL_PAGES = 2 ** 31 - 1;

/** Children's data: the backup is the app's user's alone, as the data folder is. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

async function backupInto(dir, databasePath, uploadsDir, steps) {
  mkdirSync(path.join(dir, "uploads"), { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
  // The uploads before the snapshot and again after it: a file deleted while the backup runs was
  // copied before (the snapshot may still name it), a file added before the snapshot is copied
  // after it. Files are never changed under their name, only added and deleted.
  const copied = new Set();
  const copyUploads = () => {
    for (const file of walk(uploadsDir)) {
      if (copied.has(file)) continue;
      mkdirSync(path.dirname(path.join(dir, "uploads", file)), { recursive: true, mode: PRIVATE_DIR });
      try {
        copyFileSync(path.join(uploadsDir, file), path.join(dir, "uploads", file));
        chmodSync(path.join(dir, "uploads", file), PRIVATE_FILE);
        copied.add(file);
      } catch (error) {
        if (error.code !== "ENOENT") throw error; // deleted between the listing and its copy
      }
    }
  };
  copyUploads();
  steps.beforeSnapshot?.();
  const source = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    // After its first step, all remaining pages in one: SQLite starts a backup again whenever
    // another connection writes between its steps, and in the default steps of 100 pages a
    // database the app writes to every few milliseconds was never finished. One step holds a read
    // transaction, which in WAL mode keeps no writer waiting.
    await source.backup(path.join(dir, DATABASE_FILE), { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  chmodSync(path.join(dir, DATABASE_FILE), PRIVATE_FILE);
  steps.afterSnapshot?.();
  copyUploads();
  const files = [DATABASE_FILE, ...[...copied].sort().map((f) => path.join("uploads", f))];
  const manifest = {
    createdAt: new Date().toISOString(),
    files: files.map((file) => ({ file, size: statSync(path.join(dir, file)).size, sha256: sha256(path.join(dir, file)) })),
  };
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2), { mode: PRIVATE_FILE });
  return manifest;
}

/** A manifest's file: the database or a file below `uploads/`, never a path out of the backup. */
function inBackup(file) {
  if (typeof file !== "string" || path.isAbsolute(file)) return false;
  const normal = path.normalize(file);
  return normal === DATABASE_FILE || (normal.startsWith(`uploads${path.sep}`) && !normal.split(path.sep).includes(".."));
}

export function verify(dir) {
  const manifestFile = path.join(dir, MANIFEST);
  if (!existsSync(manifestFile)) throw new Error(`Keine Sicherung in ${dir}: ${MANIFEST} fehlt.`);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch {
    manifest = null;
  }
  if (!Array.isArray(manifest?.files)) throw new Error(`Die Sicherung ist beschädigt: ${MANIFEST} ist nicht lesbar.`);
  for (const entry of manifest.files) {
    if (!inBackup(entry?.file)) throw new Error(`Die Sicherung ist beschädigt: ${String(entry?.file)} liegt nicht in der Sicherung.`);
    const file = path.join(dir, entry.file);
    if (!existsSync(file)) throw new Error(`Die Sicherung ist unvollständig: ${entry.file} fehlt.`);
    if (sha256(file) !== entry.sha256) throw new Error(`Die Sicherung ist beschädigt: ${entry.file} hat eine andere Prüfsumme.`);
  }
  if (!manifest.files.some((entry) => entry.file === DATABASE_FILE)) throw new Error(`Die Sicherung ist unvollständig: ${DATABASE_FILE} fehlt.`);
  return manifest;
}

export function restore(source, env = process.env) {
  const dir = path.resolve(source);
  const { databasePath: named, uploadsDir } = paths(env);
  const databasePath = realDatabasePath(named); // a link stays a link
  // Held while restoring: no app starts on a database half put back.
  const lock = takeAppLock(databasePath);
  if (!lock) {
    throw new Error(
      `Die App läuft${processNote(databasePath)} und hält die Datenbank, oder eine andere Wiederherstellung läuft. ` +
        "Bitte die App zuerst beenden (Strg-C im Fenster, in dem sie läuft, oder systemctl stop … oder docker stop …; README, „Back-ups“) und dann noch einmal wiederherstellen.",
    );
  }
  try {
    return restoreHolding(dir, databasePath, uploadsDir);
  } finally {
    lock.close();
  }
}

/** Tables every Lagerfeuer database has: a SQLite file of another app is never put in place of ours. */
const OUR_TABLES = ["users", "events", "registrations"];

function restoreHolding(dir, databasePath, uploadsDir) {
  const manifest = verify(dir);
  // Checked as a copy beside the app's database: opening the backup itself would write into it.
  mkdirSync(path.dirname(databasePath), { recursive: true });
  const copy = `${databasePath}.restore`;
  copyFileSync(path.join(dir, DATABASE_FILE), copy);
  try {
    const check = new Database(copy, { fileMustExist: true });
    try {
      const integrity = check.pragma("integrity_check", { simple: true });
      if (integrity !== "ok") throw new Error(`Die gesicherte Datenbank ist nicht in Ordnung: ${integrity}`);
      const tables = check.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (${OUR_TABLES.map(() => "?").join(", ")})`).pluck().get(...OUR_TABLES);
      if (tables !== OUR_TABLES.length) throw new Error(`Die Datenbank in ${dir} ist keine Sicherung von Lagerfeuer.`);
    } finally {
      check.close();
    }
  } catch (error) {
    rmSync(copy, { force: true });
    throw error;
  }
  // The uploads folder stays (a Docker volume cannot be removed): what is in it moves into its
  // folder KEPT_UPLOADS (the same file system, so a rename), kept with the database it belongs to
  // for an undo; what an earlier restore kept there goes.
  mkdirSync(uploadsDir, { recursive: true });
  const keptUploads = path.join(uploadsDir, KEPT_UPLOADS);
  rmSync(keptUploads, { recursive: true, force: true });
  mkdirSync(keptUploads, { mode: PRIVATE_DIR });
  for (const entry of readdirSync(uploadsDir)) {
    if (entry === ".tmp") rmSync(path.join(uploadsDir, entry), { recursive: true, force: true }); // cut-off uploads
    else if (entry !== KEPT_UPLOADS) renameSync(path.join(uploadsDir, entry), path.join(keptUploads, entry));
  }
  for (const entry of manifest.files.filter((f) => f.file !== DATABASE_FILE)) {
    const target = path.join(uploadsDir, path.relative("uploads", path.normalize(entry.file)));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(dir, entry.file), target);
  }
  // The database last: until here the app's old database stays as it was. Then it is kept beside
  // the restored one, with its WAL (committed writes not yet in the file), so that a wrong backup
  // can be undone; the one kept by an earlier restore goes.
  const kept = `${databasePath}.vor-wiederherstellung`;
  for (const suffix of ["", "-wal", "-shm"]) {
    rmSync(`${kept}${suffix}`, { force: true });
    if (existsSync(`${databasePath}${suffix}`)) renameSync(`${databasePath}${suffix}`, `${kept}${suffix}`);
  }
  renameSync(copy, databasePath);
  return { ...manifest, kept: existsSync(kept) ? kept : null, keptUploads: readdirSync(keptUploads).length ? keptUploads : null };
}

/** A system error as a volunteer can act on it (the scripts print only this line). */
export function inGerman(error) {
  const where = error?.path ?? "";
  if (error?.code === "EACCES" || error?.code === "EPERM") {
    return `Keine Berechtigung für ${where}. Bitte als der Benutzer ausführen, unter dem die App läuft, oder die Rechte prüfen.`;
  }
  if (error?.code === "ENOTDIR" || error?.code === "EEXIST") return `${where} ist kein Ordner.`;
  if (error?.code === "ENOSPC" || error?.code === "SQLITE_FULL") return "Auf dem Datenträger ist kein Platz mehr frei.";
  if (error?.code === "SQLITE_READONLY") return "Die Datenbank ist schreibgeschützt. Bitte die Rechte prüfen.";
  // Any other system error: its code for whoever helps, not the library's English sentence.
  if (typeof error?.code === "string") return `Unerwarteter Systemfehler ${error.code}${where ? ` bei ${where}` : ""}.`;
  return error?.message ?? String(error); // our own refusals, already in German
}

/** For the scripts' last line: the backup's time in Berlin, and how many files. */
export function describeBackup(manifest) {
  const when = new Date(manifest.createdAt).toLocaleString("de-DE", { timeZone: "Europe/Berlin", dateStyle: "medium", timeStyle: "short" });
  const count = manifest.files.length === 1 ? "1 Datei" : `${manifest.files.length} Dateien`;
  return `${count}, Sicherung vom ${when} Uhr`;
}
