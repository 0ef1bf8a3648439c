// Structured logs (pino): one line per request — method, route pattern, status, duration,
// request id — and errors with the same id. Never a query string (it may carry a token), never
// form contents, never a path segment that could be a token: the route pattern replaces ids and
// tokens with placeholders. Errors go to stderr, everything else to stdout. LOG_LEVEL.
import { randomUUID } from "node:crypto";
import pino from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type Level = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL; the settings check (env.server.ts) stops a start with any other value. */
function level(): Level {
  const wanted = (process.env.LOG_LEVEL ?? "").trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(wanted) ? (wanted as Level) : "info";
}

let instance: pino.Logger | undefined;
export function logger() {
  instance ??= pino(
    { level: level(), base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.multistream(
      [
        { level: "trace", stream: process.stdout },
        { level: "error", stream: process.stderr },
      ],
      { dedupe: true },
    ),
  );
  return instance;
}

export function newRequestId() {
  return randomUUID();
}

/** A path as a pattern: numbers become :id, e-mail addresses :email, long random-looking segments :token. */
export function routePattern(url: string) {
  const path = url.split(/[?#]/)[0];
  return (
    path
      .split("/")
      .map((segment) => {
        if (/^\d+$/.test(segment)) return ":id";
        if (/@|%40/i.test(segment)) return ":email"; // a mistyped address with an e-mail address in it
        if (segment.length >= 16 && /^[\w.~%-]+$/.test(segment) && /\d/.test(segment)) return ":token";
        if (segment.length > 40) return ":token";
        return segment;
      })
      .join("/") || "/"
  );
}

export function logRequest(entry: { id: string; method: string; url: string; status: number; ms: number }) {
  logger().info({ reqId: entry.id, method: entry.method, route: routePattern(entry.url), status: entry.status, ms: Math.round(entry.ms * 10) / 10 }, "request");
}

/**
 * A request refused before it reached the app (node's parser could not read it): one line as for
 * any request, with its status and node's reason, nothing the client sent.
 */
export function logRefusal(status: number, reason: string | undefined) {
  logger().info({ reqId: newRequestId(), status, refused: reason ?? "unbekannt" }, "request");
}

export function logError(error: unknown, reqId?: string) {
  logger().error({ reqId, err: error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : String(error) }, "error");
}
