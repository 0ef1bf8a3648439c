// Is the app running on this database? One answer for the server's start (a second server on the
// same database is refused: app/services/boot.server.ts) and for `npm run restore` (refuses while
// the app holds the database, and holds it itself while it restores: scripts/backup-lib.mjs).
// Plain JavaScript, so that the scripts, which node runs as they are, and the app's build share it.
//
// The answer is a lock, not the pid file. The server that does the start-up work holds SQLite's
// exclusive lock on a small file beside the database (`….db.lock`) for as long as it runs. It is
// an fcntl lock: the kernel lets go of it when the process ends, however it ends (a crash, kill -9,
// a power cut), and every process on the machine sees it, also one in another container sharing
// the volume, where the number in the pid file names another process or none. The pid file only
// names the process in the messages.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * Takes the app's lock on the database at `databasePath`: its handle (closing it lets go), or
 * null when another process holds it.
 * @param {string} databasePath
 * @returns {import("better-sqlite3").Database | null}
 */
export function takeAppLock(databasePath) {
  const file = `${databasePath}.lock`;
  let lock;
  try {
    mkdirSync(path.dirname(path.resolve(databasePath)), { recursive: true });
    lock = new Database(file, { timeout: 0 });
  } catch (error) {
    // The first thing a start writes: a folder missing or not the app user's is said here.
    const code = /** @type {{ code?: string }} */ (error)?.code ?? "?";
    throw new Error(`${file} lässt sich nicht anlegen oder öffnen (${code}). Gibt es den Ordner, und darf der Benutzer, unter dem Lagerfeuer läuft, darin schreiben?`);
  }
  try {
    // In exclusive locking mode a transaction's lock is kept after it, until the handle closes.
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
    lock.exec("COMMIT");
    return lock;
  } catch (error) {
    lock.close();
    if (/** @type {{ code?: string }} */ (error)?.code === "SQLITE_BUSY") return null;
    throw error;
  }
}

/**
 * The pid the app's pid file names (`….db.pid`, written at start), or null.
 * @param {string} databasePath
 * @returns {number | null}
 */
export function pidOfApp(databasePath) {
  try {
    const pid = Number(readFileSync(`${databasePath}.pid`, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * " (Prozess N)" for the messages when the pid file names one, else "".
 * @param {string} databasePath
 */
export function processNote(databasePath) {
  const pid = pidOfApp(databasePath);
  return pid ? ` (Prozess ${pid})` : "";
}
