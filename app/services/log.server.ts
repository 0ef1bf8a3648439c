// Structured logs (pino): one line per request — method, route pattern, status, duration,
// request id — and errors with the same id; the server's own news (its start and stop, a process
// replaced, a mail given up, a job failed) as lines of the same kind, so that every line is one
// JSON object. Never a query string (it may carry a token), never form contents, never a path
// segment that could be a token: the route pattern replaces ids and tokens with placeholders.
// Errors go to stderr, everything else to stdout. LOG_LEVEL.
import { randomUUID } from "node:crypto";
import type pino from "pino";
import { createJsonLog, LOG_LEVELS } from "../../scripts/json-log.mjs";
import { routePatternOf } from "./document-loads.server";


export { LOG_LEVELS };

let instance: pino.Logger | undefined;
export function logger() {
  instance ??= createJsonLog();
  return instance;
}

export function newRequestId() {
  return randomUUID();
}

/**
 * A path as its route's pattern ("/freizeit/:id", "/*" for an address of no route). Before the
 * build's routes are known: numbers become :id, e-mail addresses :email, long random-looking
 * segments :token.
 */
export function routePattern(url: string) {
  const path = url.split(/[?#]/)[0];
  const known = routePatternOf(path);
  if (known !== null) return known;
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

/** The request's id a route's context carries (server.mjs's loadContext), for its error lines. */
export function requestIdOf(context: unknown) {
  const id = (context as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" ? id : undefined;
}

/** An error, with the request's id when a request met it; `msg` says what failed, in German. */
export function logError(error: unknown, reqId?: string, msg = "error") {
  logger().error({ reqId, err: error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : String(error) }, msg);
}

/**
 * The server's own news for the person who runs it, in German: its start (`info`), a process
 * replaced (`error`), the reason a start ends (`fatal`). `fields` are counts and ids, never
 * personal data. `always` (and every `fatal` line): written whatever LOG_LEVEL says, for what
 * cannot be shown again (the first admin's generated password) and for why a start ended.
 */
export function logNotice(level: "fatal" | "error" | "warn" | "info", msg: string, fields: Record<string, unknown> = {}, always = false) {
  // The reason a start ends is always written too: a start that ends without a word helps no one.
  const shown = always || level === "fatal";
  const log = shown && !logger().isLevelEnabled(level) ? logger().child({}, { level: "trace" }) : logger();
  log[level](fields, msg);
}
