// The rendered pages anonymous visitors see most (`/` and `/freizeit/{id}`), kept in the server
// process and answered before express and Remix run. Correct first (docs/decisions/0019-page-cache.md):
// - only for a GET without any cookie, without a query string, to exactly those addresses;
// - a copy is used only while the database has not changed since it was rendered: the key holds
//   SQLite's `data_version` (changes when any other connection, e.g. another worker, commits)
//   and this connection's `total_changes()` (changes with every write of this process), read
//   before the page is rendered. Any write anywhere makes every copy old;
// - a copy lives at most PAGE_CACHE_TTL_MS, so what depends on the clock alone (an event that
//   has begun, a registration deadline passed at midnight) is at most that late;
// - the copies of a process hold at most PAGE_CACHE_MAX_BYTES (a made-up Host header is a key of
//   its own, so a visitor can make many); the oldest go first, and copies past their time go as
//   soon as another is stored;
// - only pages without script (no nonce in them), status 200, without Set-Cookie; every answer
//   gets its own fresh security headers (CSP nonce).
import { gzipSync } from "node:zlib";
import { acceptsGzip } from "./compress.server";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type Database from "better-sqlite3";
import { rawSqlite } from "./db.server";

export const PAGE_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 1_000;
/** Keys, bodies and their gzip copies together, per process. */
export const PAGE_CACHE_MAX_BYTES = 16 * 1024 * 1024;
const CACHED_PATH = /^\/(?:freizeit\/[1-9][0-9]{0,9})?$/;
/** Headers that belong to one answer only, never copied from the rendered one. */
const PER_ANSWER = new Set([
  "content-security-policy",
  "strict-transport-security",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "date",
  "connection",
  "keep-alive",
]);

type Entry = {
  key: string;
  generation: string;
  storedAt: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  gzip?: Buffer;
  etag?: string;
};

/** What a miss carries from before rendering to the finished answer. */
export type PendingPage = { key: string; generation: string; nonce: string; leads?: boolean };

/** In the order they were stored, so the oldest comes first. */
const entries = new Map<string, Entry>();
let storedBytes = 0;
let statements: { sqlite: Database.Database; version: Database.Statement; changes: Database.Statement } | undefined;

/**
 * The database's state as seen by this process: changes with every committed write anywhere.
 * Two kept statements: `PRAGMA data_version` is read when it runs (unlike pragmas that set
 * something), and costs a fifth of the table-valued pragma_data_version on every cached answer.
 */
export function databaseGeneration(): string {
  const sqlite = rawSqlite();
  if (statements?.sqlite !== sqlite) {
    statements = { sqlite, version: sqlite.prepare("PRAGMA data_version").pluck(), changes: sqlite.prepare("SELECT total_changes()").pluck() };
  }
  return `${statements.version.get() as number}:${statements.changes.get() as number}`;
}

/** The cache key of a request whose answer may come from the cache, otherwise null. */
export function pageCacheKey(req: IncomingMessage, https: boolean): string | null {
  if (req.method !== "GET" || req.headers.cookie !== undefined || req.headers.authorization !== undefined) return null;
  const url = req.url ?? "";
  if (!CACHED_PATH.test(url)) return null; // also rules out any query string
  return `${https ? "https" : "http"} ${req.headers.host ?? ""} ${req.headers["x-forwarded-host"] ?? ""} ${url}`;
}

type AnswerOptions = { https: boolean; headers: Record<string, string>; nonce: string; closing?: boolean; now?: number };
type Waiter = { req: IncomingMessage; res: ServerResponse; options: AnswerOptions; fallback: () => void };
/** Pages being rendered now, by key: requests for the same page and state wait for that one. */
const rendering = new Map<string, { generation: string; waiters: Waiter[]; startedAt: number }>();
const STUCK_MS = 10_000;

/**
 * Answers from the cache when it can (true); a request for a page that is being rendered for the
 * same database state waits for it (true; `fallback` sends it on through express should that
 * answer not be shareable). Otherwise returns the pending page to render and store, or null when
 * this request is not for the cache. `headers` are the answer's security headers.
 */
export function answerFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  options: AnswerOptions & { fallback?: () => void },
): true | PendingPage | null {
  const key = pageCacheKey(req, options.https);
  if (key === null) return null;
  const generation = databaseGeneration();
  const entry = entries.get(key);
  const now = options.now ?? Date.now();
  if (entry && entry.generation === generation && now - entry.storedAt <= PAGE_CACHE_TTL_MS) {
    send(entry, req, res, options);
    return true;
  }
  if (entry) forget(entry);
  let current = rendering.get(key);
  if (current && now - current.startedAt > STUCK_MS) {
    // A render that never ended (it cannot, but if): nobody waits for it any longer.
    rendering.delete(key);
    for (const waiter of current.waiters) waiter.fallback();
    current = undefined;
  }
  if (current && current.generation === generation && options.fallback) {
    current.waiters.push({ req, res, options, fallback: options.fallback });
    return true;
  }
  if (!current) rendering.set(key, { generation, waiters: [], startedAt: now });
  return { key, generation, nonce: options.nonce, leads: !current };
}

function send(entry: Entry, req: IncomingMessage, res: ServerResponse, options: AnswerOptions) {
  // Stored names are lower case (node's getHeaders()); the fresh ones replace them.
  const headers: OutgoingHttpHeaders = { ...entry.headers, "x-page-cache": "hit" };
  for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value;
  if (options.closing) headers.connection = "close";
  const ifNoneMatch = req.headers["if-none-match"];
  if (entry.etag && ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).includes(entry.etag)) {
    delete headers["content-type"];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  let body = entry.body;
  if (acceptsGzip(req.headers["accept-encoding"])) {
    if (!entry.gzip) {
      entry.gzip = gzipSync(entry.body);
      if (entries.get(entry.key) === entry) {
        storedBytes += entry.gzip.length;
        makeRoom(0, options.now ?? Date.now(), entry);
      }
    }
    body = entry.gzip;
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = String(body.length);
  res.writeHead(200, headers);
  res.end(body);
}

/** The render of a page ended (stored or not): the requests that waited for it get their answer. */
function release(pending: PendingPage, stored: Entry | undefined) {
  if (!pending.leads) return;
  const current = rendering.get(pending.key);
  rendering.delete(pending.key);
  for (const waiter of current?.waiters ?? []) {
    if (stored) send(stored, waiter.req, waiter.res, waiter.options);
    else waiter.fallback();
  }
}

/** Bodies as rendered, given by the server before it compresses them (remix-adapter.server.ts). */
const renderedBodies = new WeakMap<ServerResponse, Buffer>();

/** The answer's body as rendered: the one to store if the page is captured, however it is sent. */
export function keepRenderedBody(res: ServerResponse, body: Buffer) {
  renderedBodies.set(res, body);
}

/**
 * Watches the answer to a pending page and stores it when it may be shared: 200, HTML, no cookie
 * set, not marked no-store, no script carrying the nonce. What is stored is the body the server
 * gave as rendered (keepRenderedBody); an answer without one (streamed, or a refusal of the
 * server's own) is not stored.
 */
export function capturePage(res: ServerResponse, pending: PendingPage, now: () => number = Date.now) {
  // Once the answer is out, its headers are final. Cut off before: the waiting requests go on.
  let done = false;
  res.once("finish", () => {
    done = true;
    const rendered = renderedBodies.get(res);
    release(pending, rendered && storeIfShareable(res, pending, rendered, now()));
  });
  res.once("close", () => {
    if (!done) release(pending, undefined);
  });
}

function storeIfShareable(res: ServerResponse, pending: PendingPage, body: Buffer, now: number): Entry | undefined {
  if (res.statusCode !== 200 || res.hasHeader("set-cookie")) return undefined;
  if (!/^text\/html\b/i.test(String(res.getHeader("content-type") ?? ""))) return undefined;
  if (/no-store/i.test(String(res.getHeader("cache-control") ?? ""))) return undefined;
  if (body.includes(pending.nonce)) return undefined; // a script with this answer's nonce: never shared
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (!PER_ANSWER.has(name) && value !== undefined) headers[name] = value;
  }
  // The copy is sent compressed or not, by the visitor's Accept-Encoding.
  if (!/accept-encoding/i.test(String(headers.vary ?? ""))) headers.vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : "Accept-Encoding";
  const entry = { key: pending.key, generation: pending.generation, storedAt: now, headers, body, etag: typeof headers.etag === "string" ? headers.etag : undefined };
  const old = entries.get(pending.key);
  if (old) forget(old);
  const size = pending.key.length + body.length; // a key holds the raw Host headers, up to 16 KB
  if (size > PAGE_CACHE_MAX_BYTES) return entry; // answers the waiting requests, never kept
  makeRoom(size, now);
  entries.set(pending.key, entry);
  storedBytes += size;
  return entry;
}

function forget(entry: Entry) {
  if (entries.get(entry.key) !== entry) return;
  entries.delete(entry.key);
  storedBytes -= entry.key.length + entry.body.length + (entry.gzip?.length ?? 0);
}

/**
 * Lets the oldest copies go until `adding` more bytes fit (with a new copy, or with `keep`'s gzip
 * copy), and any copy past its time.
 */
function makeRoom(adding: number, now: number, keep?: Entry) {
  for (const entry of entries.values()) {
    const full = entries.size + (keep ? 0 : 1) > MAX_ENTRIES || storedBytes + adding > PAGE_CACHE_MAX_BYTES;
    if (!full && now - entry.storedAt <= PAGE_CACHE_TTL_MS) return;
    if (entry !== keep) forget(entry);
  }
}

/** How many copies this process holds and their bytes (tests). */
export function pageCacheUsage() {
  return { entries: entries.size, bytes: storedBytes };
}

/** Forgets every copy (tests). */
export function clearPageCache() {
  entries.clear();
  storedBytes = 0;
  rendering.clear();
}
