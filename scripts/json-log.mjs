// The one shape of the app's log lines (pino): a JSON object per line with its level, ISO time,
// pid and German message; errors to stderr, everything else to stdout; LOG_LEVEL. Used by the
// server (app/services/log.server.ts) and by `npm start`'s build step before it (build-state.mjs).
import pino from "pino";

export const LOG_LEVELS = /** @type {const} */ (["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/** LOG_LEVEL; the settings check (env.server.ts) stops a start with any other value. */
export function logLevel() {
  const wanted = (process.env.LOG_LEVEL ?? "").trim().toLowerCase();
  return LOG_LEVELS.includes(wanted) ? wanted : "info";
}

export function createJsonLog() {
  return pino(
    { level: logLevel(), base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.multistream(
      [
        { level: "trace", stream: process.stdout },
        { level: "error", stream: process.stderr },
      ],
      { dedupe: true },
    ),
  );
}
