// Remix's requests and answers on node's http server, in place of @remix-run/express and the
// compression middleware for every address that is not a static file (server.mjs).
//
// @remix-run/express streams every answer through a web ReadableStream, and the compression
// middleware wraps every answer's write and end. Our pages and data are finished before they are
// sent (entry.server.tsx renders to a string; json.server.ts has the text), so a finished body is
// written in one piece here, compressed at once when the client takes gzip; only an answer of
// unknown length (a file) is streamed. In a burst of 500 enrolments that per-request work was a
// tenth of the CPU (docs/decisions/0017-enrolment-burst.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import type { AppLoadContext } from "@remix-run/node";
import { gzippedIfTaken } from "./compress.server";
import { FinishedResponse } from "./finished-response.server";
import { keepRenderedBody } from "./page-cache.server";
import { errorPage } from "./security.server";
import { errorText } from "~/lib/http-errors";

/** What server.mjs knows of a request beyond node's: express's trust-aware host and protocol. */
type RequestFacts = { protocol: string; hostname: string; originalUrl?: string };

/**
 * A request whose `signal` is its own controller's. Undici's Request follows a signal handed to it
 * with a listener, a WeakRef and a finalization registry entry, which cost more than the rest of
 * the request together (18 µs against 7 µs, and work for every garbage collection); this one hands
 * out the signal that is aborted when the client goes away, and nothing follows it.
 */
class NodeRequest extends Request {
  readonly #controller: AbortController;

  constructor(input: string | Request, init: RequestInit, controller: AbortController) {
    super(input, init);
    this.#controller = controller;
  }

  override get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** A copy (its body teed, as Request's) aborted with this one. */
  override clone(): Request {
    return new NodeRequest(super.clone(), {}, this.#controller);
  }
}

/** The Fetch API request Remix gets for node's request (as @remix-run/express builds it). */
export function remixRequest(req: IncomingMessage & RequestFacts, res: ServerResponse): Request {
  // The port from X-Forwarded-Host or Host; the host name from express (it respects TRUST_PROXY).
  const portOf = (header: string | string[] | undefined) => Number.parseInt(String(header ?? "").split(":")[1] ?? "", 10);
  const forwardedPort = portOf(req.headers["x-forwarded-host"]);
  const hostPort = portOf(req.headers.host);
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : "";
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl ?? req.url}`;

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value) headers.set(name, value);
  }
  // The guard has checked the Origin against the app's own origins (isCrossSiteWrite, with the
  // trusted proxy's protocol and APP_URL). Remix would check it again against X-Forwarded-Host or
  // Host, byte for byte and whether the proxy is trusted or not, and answer a post it refuses with
  // an empty 500 (an attack probe: any X-Forwarded-Host did it). Nothing of the app reads it after.
  headers.delete("origin");
  // Loaders and actions are aborted when the answer can no longer be sent (closed before finished).
  const controller = new AbortController();
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    return new NodeRequest(url, init, controller);
  } catch {
    // An address no URL can be made of (the guard refuses the ones we know): the client's fault.
    throw Object.assign(new Error("Ungültige Adresse"), { status: 400 });
  }
}

/** Types worth compressing (as the compression middleware's list, for what the app sends). */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|[\w.+-]+\+(?:json|xml))|image\/svg\+xml)/i;

/** Adds `token` to the Vary header unless it is there. */
function vary(res: ServerResponse, token: string) {
  const current = String(res.getHeader("Vary") ?? "");
  if (!current.split(/\s*,\s*/).some((t) => t.toLowerCase() === token.toLowerCase())) res.setHeader("Vary", current ? `${current}, ${token}` : token);
}

/** Sends Remix's answer: a finished body in one piece (gzipped when taken), any other streamed. */
export async function sendRemixResponse(req: IncomingMessage, res: ServerResponse, remixResponse: Response) {
  // Remix's English error answers, and the empty 500 its handler sends when something throws
  // outside the routes' error boundaries: the German page (or JSON) for the status instead.
  const unexplained = remixResponse.status >= 500 && FinishedResponse.bytesOf(remixResponse) === undefined && remixResponse.body === null;
  // A resource route's thrown refusal (an old export or calendar link: "Nicht gefunden" as plain
  // text) gets the page too; Remix's own data requests read theirs as it is.
  const thrownOutsidePage = remixResponse.headers.has("X-Remix-Catch") && remixResponse.status >= 400 && !isDataRequest(req);
  const response = remixResponse.headers.has("X-Remix-Error") || unexplained || thrownOutsidePage ? inGerman(req, remixResponse) : remixResponse;
  // A body not read to its end (refused over the limit): the answer closes the connection, and
  // the rest is read and dropped meanwhile, so the client gets the answer, not a reset.
  if (req.method !== "GET" && req.method !== "HEAD" && !req.complete) {
    res.setHeader("Connection", "close");
    dropTheRest(req);
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);

  const type = response.headers.get("Content-Type") ?? "";
  const compressible = COMPRESSIBLE.test(type) && !response.headers.has("Content-Encoding");
  let body = FinishedResponse.bytesOf(response);
  if (body === undefined && response.body && compressible && !/text\/event-stream/i.test(type)) {
    body = Buffer.from(await response.arrayBuffer());
  }
  if (body === undefined) {
    // HEAD: Remix answered without the body; the headers say what GET's would (its length aside).
    if (req.method === "HEAD" && compressible) vary(res, "Accept-Encoding");
    if (response.body) await writeReadableStreamToWritable(response.body, res);
    else res.end();
    return;
  }
  // The page cache keeps the bytes as rendered, whatever this answer is sent as.
  if (!response.headers.has("Content-Encoding")) keepRenderedBody(res, body);
  if (compressible) {
    vary(res, "Accept-Encoding");
    const noTransform = /\bno-transform\b/i.test(String(res.getHeader("Cache-Control") ?? ""));
    const gzipped = noTransform || req.method === "HEAD" ? null : gzippedIfTaken(body, req.headers["accept-encoding"]);
    if (gzipped) {
      body = gzipped;
      res.setHeader("Content-Encoding", "gzip");
    }
  }
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

/** How long a refused body's rest is read and dropped at most before the connection is cut. */
const DROP_REST_MS = 5_000;

function dropTheRest(req: IncomingMessage) {
  req.removeAllListeners("data"); // the web stream's: nothing reads it any more
  const cut = setTimeout(() => req.destroy(), DROP_REST_MS);
  cut.unref();
  req.on("data", () => undefined);
  req.once("end", () => clearTimeout(cut));
  req.once("close", () => clearTimeout(cut));
  req.resume();
}

/**
 * An error Remix answers itself outside a page (a `?_data=` request, a file or feed address: a POST
 * there, a route that does not match, an exception) carries English JSON ("Unexpected Server
 * Error", "You made a POST request …"). A `?_data=` request keeps its JSON and header, which
 * Remix's browser code reads, with our German words; anyone else gets the German error page.
 */
/** Remix's own fetch of a route's data (`?_data=`), which its browser code reads as JSON. */
const isDataRequest = (req: IncomingMessage) => /[?&]_data=/.test(req.url ?? "");

function inGerman(req: IncomingMessage, response: Response): Response {
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  if (isDataRequest(req)) {
    headers.set("Content-Type", "application/json; charset=utf-8");
    const text = JSON.stringify({ message: errorText(response.status).message });
    return new FinishedResponse(Buffer.from(text), { status: response.status, headers }, text);
  }
  const page = errorPage(response.status);
  headers.delete("X-Remix-Error");
  headers.delete("X-Remix-Catch");
  for (const [name, value] of Object.entries(page.headers)) headers.set(name, value);
  return new FinishedResponse(Buffer.from(page.body), { status: page.status, headers }, page.body);
}

/** Load context with the client's address read only when a route asks (login limits). */
export function loadContext(req: IncomingMessage & { ip?: string }, values: Omit<AppLoadContext, "clientIp">): AppLoadContext {
  return Object.defineProperty({ ...values }, "clientIp", { get: () => req.ip, enumerable: true });
}
