// Is the app running on this database? One answer for the server's start (a second server on the
// same database is refused: app/services/boot.server.ts) and for `npm run restore` (refuses while
// the app holds the database: scripts/backup-lib.mjs). Plain JavaScript, so that the scripts,
// which node runs as they are, and the app's build share it.
import { readFileSync } from "node:fs";

/** The command line of a server of the app: server.mjs, or `npm start`'s scripts/start.mjs. */
const SERVER_COMMAND = /(?:^|[/\0\s])(?:server|start)\.mjs(?:$|[\0\s])/;

/**
 * The pid that `pidFile` names when it is a living process running the app, else null. After a
 * crash or a restart the file may be left over and its number belong to another program, or be
 * free: neither counts. Without /proc (not Linux) any living process with that pid counts.
 * @param {string} pidFile
 * @returns {number | null}
 */
export function runningApp(pidFile) {
  let pid;
  try {
    pid = Number(readFileSync(pidFile, "utf8").trim());
  } catch {
    return null; // no pid file: no app started on this database
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error?.code !== "EPERM") return null; // gone; EPERM: alive, but another user's
  }
  let command = "server.mjs";
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    // no /proc: a living process with that pid counts
  }
  return SERVER_COMMAND.test(command) ? pid : null;
}
