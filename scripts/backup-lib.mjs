// Backups of the database and the uploaded files, and their restore (README, 'Back-ups').
// `npm run backup -- DIR` works while the app runs and writes: SQLite's online backup API copies a
// consistent snapshot; the uploads are copied before it and again after it, so every file a
// backed-up row names is there. A manifest lists every file with its size and SHA-256.
// `npm run restore -- DIR` puts it back (restore-lib.mjs). A backup is readable by the app's user
// only (0700/0600), as the data folder is.
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export const MANIFEST = "manifest.json";
export const DATABASE_FILE = "lagerfeuer.db";
/** Below the uploads folder: the files a restore replaced (never served, never backed up). */
export const KEPT_UPLOADS = ".vor-wiederherstellung";
/** During a restore: the backup's files, copied in full before anything of the app's moves, and the app's meanwhile. */
export const STAGED = ".wiederherstellung-neu";
export const MOVED = ".vor-wiederherstellung-neu";

export function paths(env = process.env) {
  const databasePath = path.resolve(env.DATABASE_PATH || "data/lagerfeuer.db");
  return { databasePath, uploadsDir: path.resolve(env.UPLOADS_DIR || "uploads") };
}

/** Is `inner` the folder `outer` or inside it (links followed where the paths exist)? */
export function within(inner, outer) {
  const real = (p) => (existsSync(p) ? realpathSync(p) : path.resolve(p));
  const a = real(inner);
  const b = real(outer);
  return a === b || a.startsWith(`${b}${path.sep}`);
}

export function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function walk(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // A folder linked from elsewhere (another disk) is backed up as a folder (operations probe).
    const folder = entry.isDirectory() || (entry.isSymbolicLink() && statSync(full, { throwIfNoEntry: false })?.isDirectory());
    if (folder) return [".tmp", KEPT_UPLOADS, STAGED, MOVED].includes(entry.name) ? [] : walk(full, base);
    return [path.relative(base, full)];
  });
}

/**
 * @param {{ beforeSnapshot?: () => void, afterSnapshot?: () => void }} [steps] what happens meanwhile (tests)
 */
export async function backup(target, env = process.env, steps = {}) {
  const { databasePath, uploadsDir } = paths(env);
  if (!statSync(databasePath, { throwIfNoEntry: false })?.isFile()) throw new Error(`Keine Datenbank unter ${databasePath}. Bitte DATABASE_PATH so setzen wie für die App.`);
  // Without it the backup would hold no files, and its restore would delete every upload.
  if (!existsSync(uploadsDir)) throw new Error(`Kein Upload-Ordner unter ${uploadsDir}. Bitte UPLOADS_DIR so setzen wie für die App.`);
  const dir = path.resolve(target);
  // Inside the uploads, each backup would copy the ones before it (operations review).
  if (within(dir, uploadsDir)) {
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

/** The app's database, read only; a file SQLite cannot open is said with its path and what to check. */
function openForBackup(databasePath) {
  try {
    return new Database(databasePath, { readonly: true, fileMustExist: true });
  } catch (error) {
    if (error?.code === "SQLITE_CANTOPEN") throw new Error(`Die Datenbank ${databasePath} lässt sich nicht öffnen. Bitte als der Benutzer ausführen, unter dem die App läuft, und DATABASE_PATH prüfen.`);
    throw error;
  }
}

/** Pages per step of SQLite's backup: all there are. */
const ALL_PAGES = 2 ** 31 - 1;

/** Children's data: the backup is the app's user's alone, as the data folder is. */
export const PRIVATE_DIR = 0o700;
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
  const source = openForBackup(databasePath);
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
