// Is the app running on this database? One answer for the server's start (a second server on the
// same database is refused: app/services/boot.server.ts) and for `npm run restore` (refuses while
// the app holds the database, and holds it itself while it restores: scripts/restore-lib.mjs).
// Plain JavaScript, so that the scripts, which node runs as they are, and the app's build share it.
//
// The answer is a lock, not the pid file. The server that does the start-up work holds SQLite's
// exclusive lock on a small file beside the database (`….db.lock`) for as long as it runs. It is
// an fcntl lock: the kernel lets go of it when the process ends, however it ends (a crash, kill -9,
// a power cut), and every process on the machine sees it, also one in another container sharing
// the volume, where the number in the pid file names another process or none. The pid file only
// names the process in the messages.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * The database file `databasePath` names: a symbolic link followed, so that the lock, the pid file
 * and a restore find the same file whichever way it is named.
 * @param {string} databasePath
 */
export function realDatabasePath(databasePath) {
  const resolved = path.resolve(databasePath);
  return existsSync(resolved) ? realpathSync(resolved) : resolved;
}

/**
 * The lock file and the pid file of the database at `databasePath`, beside the database itself.
 * @param {string} databasePath
 */
export function appFiles(databasePath) {
  const real = realDatabasePath(databasePath);
  return { lock: `${real}.lock`, pid: `${real}.pid` };
}

/**
 * Takes the app's lock on the database at `databasePath`: its handle (closing it lets go), or
 * null when another process holds it.
 * @param {string} databasePath
 * @returns {import("better-sqlite3").Database | null}
 */
export function takeAppLock(databasePath) {
  const { lock: file } = appFiles(databasePath);
  let lock;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // a data folder made here is the app user's alone
    // Only the app's user may open it: anyone who can read it could hold a lock on it.
    closeSync(openSync(file, "a", 0o600));
    lock = new Database(file, { timeout: 0 });
  } catch (error) {
    throw cannotLock(file, error);
  }
  try {
    // In exclusive locking mode a transaction's lock is kept after it, until the handle closes.
    // The write makes it a write lock: a file the app may not write is opened read-only without
    // a word, and a read-only transaction only ever takes a shared lock, which excludes nobody.
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
    lock.pragma("user_version = 1");
    lock.exec("COMMIT");
    return lock;
  } catch (error) {
    lock.close();
    if (/** @type {{ code?: string }} */ (error)?.code === "SQLITE_BUSY") return null;
    throw cannotLock(file, error);
  }
}

/**
 * The German message for a lock file that cannot be made, opened or written.
 * @param {string} file
 * @param {unknown} error
 */
function cannotLock(file, error) {
  const code = /** @type {{ code?: string }} */ (error)?.code ?? "?";
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
    return new Error(`${file} ist keine Sperrdatei von Lagerfeuer (${code}). Wenn Lagerfeuer nicht läuft, bitte die Datei löschen.`);
  }
  return new Error(`${file} lässt sich nicht anlegen, öffnen oder beschreiben (${code}). Stimmt DATABASE_PATH, gibt es den Ordner, und darf der Benutzer, unter dem Lagerfeuer läuft, darin schreiben?`);
}

/**
 * The pid the app's pid file names (written at start) when that process is alive, else null: the
 * lock's holder may also be a restore, or the file left from before a restart.
 * @param {string} databasePath
 * @returns {number | null}
 */
function pidOfApp(databasePath) {
  let pid;
  try {
    pid = Number(readFileSync(appFiles(databasePath).pid, "utf8").trim());
  } catch {
    return null; // no pid file
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (/** @type {{ code?: string }} */ (error)?.code !== "EPERM") return null; // EPERM: alive, another user's
  }
  return pid;
}

/**
 * " (Prozess N)" for the messages when the pid file names a living process, else "".
 * @param {string} databasePath
 */
export function processNote(databasePath) {
  const pid = pidOfApp(databasePath);
  return pid ? ` (Prozess ${pid})` : "";
}
