// The production (and development) server: express with the same pieces as remix-serve
// (compression, static files, the Remix handler) plus what remix-serve cannot do: security
// headers on every response, refusal of cross-site form posts, unsupported methods and malformed
// addresses before any action runs, no caching of personal answers, a German page for every
// error, the start-up work of the app (settings check, migrations, first admin, mail worker)
// and a graceful shutdown that lets requests in flight finish.
// Why not remix-serve: docs/decisions/0001-own-express-server.md
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

// Production unless told otherwise: React and Remix pick their fast builds from this.
process.env.NODE_ENV ??= "production";
const development = process.env.NODE_ENV === "development";
const BUILD_PATH = path.resolve("build/index.js");
const VERSION_PATH = path.resolve("build/version.txt");

async function importBuild() {
  const stamp = development ? `?t=${statSync(VERSION_PATH, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()}` : "";
  return import(pathToFileURL(BUILD_PATH).href + stamp);
}

let build = await importBuild();
const {
  boot,
  shutdown,
  securityHeaders,
  isCrossSiteWrite,
  CROSS_SITE_REFUSAL,
  ALLOWED_METHODS,
  isMalformedPath,
  isMalformedHost,
  errorPage,
  originOf,
  hasSessionCookie,
  PERSONAL_CACHE_CONTROL,
  maxBodyBytes,
} = build.entry.module;

let config;
try {
  config = await boot();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const app = express();
app.disable("x-powered-by");
app.disable("etag"); // pages get their ETag from entry.server.tsx; static files from express.static
// Which proxies may tell the client's address and protocol (req.ip, req.protocol, req.secure):
// TRUST_PROXY, by default only one on the same machine.
app.set("trust proxy", config.trustProxy);
app.use(compression());

const appOrigin = originOf(config.appUrl);
let stopping = false;

function sendErrorPage(res, status, headers = {}) {
  const page = errorPage(status);
  res.status(page.status).set({ ...page.headers, ...headers }).send(page.body);
}

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  const headers = securityHeaders({ nonce, development, https: req.secure });
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);

  // Last word on every answer's headers, just before they are sent: one that sets a cookie, or
  // one for a signed-in person that does not say it is the same for everyone (public), is never
  // stored. While the server stops, connections close after their answer.
  const personal = hasSessionCookie(req.get("cookie"));
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    const cacheControl = String(res.getHeader("Cache-Control") ?? "");
    if (res.hasHeader("Set-Cookie") || (personal && !/\bpublic\b/i.test(cacheControl))) {
      res.setHeader("Cache-Control", PERSONAL_CACHE_CONTROL);
    }
    // Over HTTPS every cookie is Secure, whichever code set it.
    if (req.secure && res.hasHeader("Set-Cookie")) {
      const cookies = [res.getHeader("Set-Cookie")].flat().map(String);
      res.setHeader("Set-Cookie", cookies.map((c) => (/;\s*secure\s*(;|$)/i.test(c) ? c : `${c}; Secure`)));
    }
    if (stopping) res.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  };

  if (!ALLOWED_METHODS.includes(req.method)) {
    sendErrorPage(res, 405, { Allow: ALLOWED_METHODS.join(", ") });
    return;
  }
  if (isMalformedPath(req.url) || isMalformedHost(req.get("host")) || isMalformedHost(req.hostname)) {
    sendErrorPage(res, 400);
    return;
  }
  const ownOrigins = [`${req.protocol}://${req.get("host")}`.toLowerCase(), appOrigin];
  const request = { method: req.method, headers: { get: (name) => req.get(name) ?? null }, ownOrigins };
  if (isCrossSiteWrite(request)) {
    res.status(403).type("text/plain; charset=utf-8").send(CROSS_SITE_REFUSAL);
    return;
  }
  // A body larger than any form of the app takes is refused before a byte of it is read; node
  // discards the rest as it arrives and the connection closes after the answer.
  if (Number(req.get("content-length") ?? 0) > maxBodyBytes(req.get("content-type"))) {
    sendErrorPage(res, 413, { Connection: "close" });
    return;
  }
  next();
});

// Fingerprinted build assets never change: cached for a year.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y", etag: false }));
app.use(express.static("public", { maxAge: "1h" }));

const getLoadContext = (req, res) => ({ cspNonce: res.locals.cspNonce, clientIp: req.ip });
const makeHandler = (currentBuild) => createRequestHandler({ build: currentBuild, mode: currentBuild.mode, getLoadContext });
let remixHandler = makeHandler(build);
let loadedVersion = development ? statSync(VERSION_PATH, { throwIfNoEntry: false })?.mtimeMs : undefined;

async function handler(req, res, next) {
  if (development) {
    // `remix dev` rebuilt the app: load the new server build.
    const version = statSync(VERSION_PATH, { throwIfNoEntry: false })?.mtimeMs;
    if (version !== loadedVersion) {
      loadedVersion = version;
      build = await importBuild();
      remixHandler = makeHandler(build);
    }
  }
  return remixHandler(req, res, next);
}

app.all("*", handler);

// Whatever error reaches express: a small German page, never a stack trace; logged unless it is
// the client's fault.
app.use((error, req, res, _next) => {
  const status = Number(error?.status ?? error?.statusCode);
  const clientError = status >= 400 && status < 500;
  if (!clientError) console.error(error);
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  sendErrorPage(res, clientError ? status : 500);
});

const listening = () => {
  const host = config.host?.includes(":") ? `[${config.host}]` : (config.host ?? "localhost");
  console.log(`Lagerfeuer läuft auf http://${host}:${config.port}`);
  if (development) broadcastDevReady(build);
};
// HOST unset: every interface, as node does by default.
const server = config.host ? app.listen(config.port, config.host, listening) : app.listen(config.port, listening);

/**
 * Stops taking connections, lets requests in flight finish (at most SHUTDOWN_TIMEOUT_SECONDS),
 * then lets the mail worker finish its current mail and closes the database.
 */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: Server wird beendet …`);
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const deadline = setTimeout(() => {
    console.log(`Nach ${config.shutdownTimeoutSeconds} s werden die offenen Anfragen abgebrochen.`);
    server.closeAllConnections();
  }, config.shutdownTimeoutSeconds * 1000);
  await closed;
  clearTimeout(deadline);
  await shutdown();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
