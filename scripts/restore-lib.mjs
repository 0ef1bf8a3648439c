// `npm run restore -- DIR` (README, 'Back-ups'): checks the backup's manifest (no path out of the
// backup), refuses while the app runs, checks the database's integrity and that it is
// Lagerfeuer's, copies everything beside the app's files first, then swaps them by renames, the
// database last; any failure on the way leaves the app's database and files as they were.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { DATABASE_FILE, KEPT_UPLOADS, MANIFEST, MOVED, paths, PRIVATE_DIR, sha256, STAGED, within } from "./backup-lib.mjs";
import { processNote, realDatabasePath, takeAppLock } from "./running-app.mjs";

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

/**
 * @param {{ copied?: (file: string) => void, swapped?: () => void }} [steps] what happens meanwhile (tests)
 */
export function restore(source, env = process.env, steps = {}) {
  const dir = path.resolve(source);
  const { databasePath: named, uploadsDir } = paths(env);
  const databasePath = realDatabasePath(named); // a link stays a link
  // A backup that holds the app's own database or uploads (or lies in them) would be emptied by
  // its own restore (operations probe).
  if (within(dir, uploadsDir) || within(uploadsDir, dir) || within(databasePath, dir)) {
    throw new Error(`Die Sicherung in ${dir} enthält die Datenbank oder den Upload-Ordner der App, oder liegt darin (DATABASE_PATH, UPLOADS_DIR). Bitte die Sicherung zuerst an einen anderen Ort kopieren.`);
  }
  // Held while restoring: no app starts on a database half put back.
  const lock = takeAppLock(databasePath);
  if (!lock) {
    throw new Error(
      `Die App läuft${processNote(databasePath)} und hält die Datenbank, oder eine andere Wiederherstellung läuft. ` +
        "Bitte die App zuerst beenden (Strg-C im Fenster, in dem sie läuft, oder systemctl stop … oder docker stop …; README, „Back-ups“) und dann noch einmal wiederherstellen.",
    );
  }
  try {
    return restoreHolding(dir, databasePath, uploadsDir, steps);
  } finally {
    lock.close();
  }
}

/** Tables every Lagerfeuer database has: a SQLite file of another app is never put in place of ours. */
const OUR_TABLES = ["users", "events", "registrations"];

/**
 * @param {{ copied?: (file: string) => void, swapped?: () => void }} [steps] what happens meanwhile (tests: a full disk)
 */
function restoreHolding(dir, databasePath, uploadsDir, steps = {}) {
  const manifest = verify(dir);
  mkdirSync(uploadsDir, { recursive: true });
  const moved = path.join(uploadsDir, MOVED);
  if (existsSync(moved)) {
    throw new Error(
      `Eine frühere Wiederherstellung wurde unterbrochen: Die Dateien der App von vor ihr liegen in ${moved}. ` +
        "Eine neue Wiederherstellung setzt alles aus der Sicherung ein; sie beginnt, sobald dieser Ordner weg ist. Bitte die Dateien darin an einen anderen Ort verschieben, wenn sie noch gebraucht werden, dann den Ordner löschen.",
    );
  }
  // Checked as a copy beside the app's database: opening the backup itself would write into it.
  mkdirSync(path.dirname(databasePath), { recursive: true });
  const copy = `${databasePath}.restore`;
  const staged = path.join(uploadsDir, STAGED);
  try {
    copyFileSync(path.join(dir, DATABASE_FILE), copy);
    checkDatabase(copy, dir);
    // Everything copied before anything of the app's is touched: a full disk stops the restore
    // here, with the app as it was (operations probe: half the uploads were gone).
    rmSync(staged, { recursive: true, force: true });
    mkdirSync(staged, { mode: PRIVATE_DIR });
    for (const entry of manifest.files.filter((f) => f.file !== DATABASE_FILE)) {
      const target = path.join(staged, path.relative("uploads", path.normalize(entry.file)));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(path.join(dir, entry.file), target);
      steps.copied?.(entry.file);
    }
  } catch (error) {
    rmSync(copy, { force: true });
    rmSync(staged, { recursive: true, force: true });
    throw error;
  }
  // Now only renames in the uploads' and the database's own folders. The uploads folder stays (a
  // Docker volume cannot be removed): what is in it moves aside, the backup's files move in.
  const appEntries = readdirSync(uploadsDir).filter((entry) => ![STAGED, MOVED, KEPT_UPLOADS, ".tmp"].includes(entry));
  const newEntries = readdirSync(staged);
  const kept = `${databasePath}.vor-wiederherstellung`;
  const swapped = { app: [], backup: [], database: [] };
  try {
    mkdirSync(moved, { mode: PRIVATE_DIR });
    for (const entry of appEntries) {
      renameSync(path.join(uploadsDir, entry), path.join(moved, entry));
      swapped.app.push(entry);
    }
    for (const entry of newEntries) {
      renameSync(path.join(staged, entry), path.join(uploadsDir, entry));
      swapped.backup.push(entry);
    }
    steps.swapped?.();
    // The database last. The app's is kept beside it with its WAL (committed writes not yet in
    // the file), so that a wrong backup can be undone; the one kept by an earlier restore goes.
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${kept}${suffix}`, { force: true });
    for (const suffix of ["", "-wal", "-shm"]) {
      if (!existsSync(`${databasePath}${suffix}`)) continue;
      renameSync(`${databasePath}${suffix}`, `${kept}${suffix}`);
      swapped.database.push(suffix);
    }
    renameSync(copy, databasePath);
  } catch (error) {
    // Back as it was: the app's database and files in their places, the backup's copies gone. Each
    // step on its own, so that one that fails does not leave the others undone; the error said is
    // the one that stopped the restore. The app's files folder goes only once it is empty.
    const undo = (step) => {
      try {
        step();
      } catch {
        // what cannot be undone stays where it is; the error said is the one that stopped the restore
      }
    };
    for (const suffix of swapped.database) undo(() => renameSync(`${kept}${suffix}`, `${databasePath}${suffix}`));
    for (const entry of swapped.backup) undo(() => rmSync(path.join(uploadsDir, entry), { recursive: true, force: true }));
    for (const entry of swapped.app) undo(() => renameSync(path.join(moved, entry), path.join(uploadsDir, entry)));
    undo(() => existsSync(moved) && !readdirSync(moved).length && rmSync(moved, { recursive: true }));
    undo(() => rmSync(staged, { recursive: true, force: true }));
    undo(() => rmSync(copy, { force: true }));
    throw error;
  }
  // Done: the app's files become the kept ones, in place of what an earlier restore kept.
  const keptUploads = path.join(uploadsDir, KEPT_UPLOADS);
  rmSync(keptUploads, { recursive: true, force: true });
  renameSync(moved, keptUploads);
  rmSync(staged, { recursive: true, force: true });
  return { ...manifest, kept: existsSync(kept) ? kept : null, keptUploads: readdirSync(keptUploads).length ? keptUploads : null };
}

/** The backup's database (its copy `file`): intact, and Lagerfeuer's. */
function checkDatabase(file, dir) {
  let check;
  try {
    check = new Database(file, { fileMustExist: true });
    const integrity = check.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`Die gesicherte Datenbank ist nicht in Ordnung: ${integrity}`);
    const tables = check.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (${OUR_TABLES.map(() => "?").join(", ")})`).pluck().get(...OUR_TABLES);
    if (tables !== OUR_TABLES.length) throw new Error(`Die Datenbank in ${dir} ist keine Sicherung von Lagerfeuer.`);
  } catch (error) {
    // SQLite's own words for a damaged file are English ("database disk image is malformed").
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(error?.code ?? "")) throw new Error(`Die gesicherte Datenbank ist nicht in Ordnung (${error.code}).`);
    throw error;
  } finally {
    check?.close();
  }
}
