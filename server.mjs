// The production (and development) server: express with the same pieces as remix-serve
// (compression, static files, the Remix handler) plus what remix-serve cannot do: security
// headers on every response, refusal of cross-site form posts before any action runs, and the
// start-up work of the app (settings check, migrations, first admin, mail worker).
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
const { boot, shutdown, securityHeaders, isCrossSiteWrite, CROSS_SITE_REFUSAL } = build.entry.module;

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
app.set("trust proxy", "loopback");
app.use(compression());

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  for (const [name, value] of Object.entries(securityHeaders({ nonce, development }))) res.setHeader(name, value);
  const ownOrigin = `${req.protocol}://${req.get("host")}`;
  const request = { method: req.method, headers: { get: (name) => req.get(name) ?? null }, ownOrigin };
  if (isCrossSiteWrite(request)) {
    res.status(403).type("text/plain; charset=utf-8").send(CROSS_SITE_REFUSAL);
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

const server = app.listen(config.port, () => {
  console.log(`Lagerfeuer läuft auf http://localhost:${config.port}`);
  if (development) broadcastDevReady(build);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: Server wird beendet …`);
  server.close();
  server.closeIdleConnections?.();
  await shutdown();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
