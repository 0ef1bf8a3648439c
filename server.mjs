// The production (and development) server: express for the static files (with compression),
// Remix through our own adapter (remix-adapter.server.ts, past express's router; decision 0017),
// and what remix-serve cannot do: security
// headers on every response, refusal of cross-site form posts, unsupported methods and malformed
// addresses before any action runs, no caching of personal answers, a German page for every
// error, the start-up work of the app (settings check, migrations, first admin), the mail worker
// and the scheduler, and a graceful shutdown that lets requests in flight finish. Anonymous
// visitors get `/` and the event pages from a cache of rendered pages before express runs
// (page-cache.server.ts), and WEB_CONCURRENCY processes answer requests (node:cluster: the
// primary does the start-up work and hands out connections; the mail worker and the scheduler
// run in one "jobs" process of their own at a lower CPU priority, which answers no requests).
// Why: docs/decisions/0001-own-express-server.md, 0019-page-cache.md, 0014-cluster.md
import cluster from "node:cluster";
import { readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { availableParallelism, setPriority } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { broadcastDevReady, createRequestHandler } from "@remix-run/node";
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
  closeDatabase,
  answerFromCache,
  capturePage,
  securityHeaders,
  newNonce,
  isCrossSiteWrite,
  CROSS_SITE_REFUSAL,
  ALLOWED_METHODS,
  isMalformedPath,
  firstForwarded,
  isMalformedHost,
  errorPage,
  originOf,
  hasSessionCookie,
  PERSONAL_CACHE_CONTROL,
  maxBodyBytes,
  logError,
  logNotice,
  logRequest,
  newRequestId,
  kickMailWorker,
  MAIL_QUEUED,
  remixRequest,
  sendRemixResponse,
  guardConnections,
  listenProblem,
  SERVER_LIMITS,
  loadContext,
} = build.entry.module;

/** A whole number from `min` to `max` in the variable `name`, or `fallback` when unset; any other value ends the start. */
function wholeNumberSetting(name, min, max, fallback) {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    logNotice("fatal", `${name} muss eine ganze Zahl von ${min} bis ${max} sein, ist aber „${raw}“.`);
    process.exit(1);
  }
  return value;
}
/** WEB_CONCURRENCY: how many processes answer requests; by default the cores, at most 4. */
function processCount() {
  if (development) return 1; // `remix dev` reloads the build in one process
  return wholeNumberSetting("WEB_CONCURRENCY", 1, 64, Math.min(availableParallelism(), 4));
}
/** JOBS_NICE: the jobs process's CPU priority, 0 (the workers') to 19 (the lowest, the default). */
const jobsNice = () => wholeNumberSetting("JOBS_NICE", 0, 19, 19);
if (!cluster.isWorker) jobsNice(); // a wrong value stops the start, not only the jobs process

/**
 * single: one process does everything; primary: start-up work, forks the others and hands out
 * connections; worker: answers requests; jobs: the mail worker and the scheduler (LAGERFEUER_ROLE
 * is set by the primary for each process it forks).
 */
const role = cluster.isWorker ? (process.env.LAGERFEUER_ROLE === "jobs" ? "jobs" : "worker") : processCount() > 1 ? "primary" : "single";
/** What boot() does in each role (app/services/boot.server.ts). */
const BOOT_PARTS = { single: {}, primary: { jobs: false }, worker: { background: false }, jobs: { startup: false } };

// The jobs process gives way to the request workers in a burst: JOBS_NICE, by default the lowest
// priority (nice 19), set before its first jobs run, so mail and scheduled work use what CPU the
// requests leave (at nice 10 it still took a sixth of the CPU in a burst of 500 enrolments).
// Not allowed or not supported: it runs at the same priority.
if (role === "jobs") {
  try {
    setPriority(jobsNice());
  } catch {
    // the same priority as the workers
  }
}

let config;
try {
  config = await boot({ ...BOOT_PARTS[role], beforeWrites: portCanBeOpened });
  if (role === "jobs") logNotice("info", `Mail-Versand und Zeitplan laufen in Prozess ${process.pid}.`);
} catch (error) {
  logNotice("fatal", error instanceof Error ? error.message : String(error));
  process.exit(1);
}

if (role === "primary") runPrimary(processCount());
else if (role === "jobs") runJobs();
else serveRequests();

/**
 * express's trust function with its answers kept, by address and hop (at most 1,000): req.secure,
 * req.protocol, req.hostname and req.ip ask it on every request, and parsing an address each
 * time cost more than answering a cached page.
 */
function rememberTrust(trust) {
  const answers = new Map();
  return (address, hop) => {
    const key = `${hop} ${address}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      if (answers.size >= 1_000) answers.clear();
      answer = Boolean(trust(address, hop));
      answers.set(key, answer);
    }
    return answer;
  };
}

/** A worker's exit code when it cannot listen on the port: the primary ends instead of replacing it. */
const CANNOT_LISTEN = 78;

/**
 * Opens the port once and closes it again, before the start-up work (migrations, first admin)
 * writes anything: a start that cannot serve ends with the reason and leaves nothing behind (it
 * printed the first admin's one-time password, then ended). The workers of a cluster listen
 * through the primary, which asks here first.
 */
function portCanBeOpened({ port, host }) {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", (error) => reject(new Error(listenProblem(error, port))));
    probe.listen({ port, ...(host ? { host } : {}), exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Calls `stop` with the signal's name on SIGTERM and SIGINT. */
function onStopSignals(stop) {
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/** The HTTP server of a single process or of one worker of the cluster. */
function serveRequests() {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag"); // pages get their ETag from entry.server.tsx; static files from express.static
  // Which proxies may tell the client's address and protocol (req.ip, req.protocol, req.secure):
  // TRUST_PROXY, by default only one on the same machine.
  app.set("trust proxy", config.trustProxy);
  app.set("trust proxy", rememberTrust(app.get("trust proxy fn")));
  // Static files only: Remix's answers are compressed by sendRemixResponse.
  app.use(compression());

  const appOrigin = originOf(config.appUrl);
  /** Host (which HTTP/1.1 requires) and X-Forwarded-Host (trusted or not) name a host a URL can have,
   * or are absent. */
  // One Host line at most (RFC 9112: a request with two is answered 400, as one without).
  const oneHost = (raw) => {
    let seen = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === "host" && ++seen > 1) return false;
    return true;
  };
  const hostsFine = (req) =>
    (req.headers.host !== undefined || req.httpVersion === "1.0") &&
    oneHost(req.rawHeaders) &&
    !isMalformedHost(req.headers.host) &&
    !isMalformedHost(firstForwarded(req.headers["x-forwarded-host"]));
  let stopping = false;

  function sendErrorPage(res, status, headers = {}) {
    const page = errorPage(status);
    res.status(page.status).set({ ...page.headers, ...headers }).send(page.body);
  }

  /**
   * Every request's headers and refusals, before a static file or Remix: security headers (with
   * the CSP nonce), the last word on caching and cookies, unsupported methods, malformed
   * addresses, unknown `?_data=`, cross-site form posts and bodies too large.
   */
  function guard(req, res, next) {
    const nonce = req.cspNonce ?? newNonce();
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
    if (!hostsFine(req) || isMalformedPath(req.url) || isMalformedHost(req.hostname)) {
      sendErrorPage(res, 400);
      return;
    }
    // `?_data=` naming no route of the app: Remix would answer in English.
    const dataRoutes = req.url.includes("_data") ? new URLSearchParams(req.url.split("?")[1] ?? "").getAll("_data") : [];
    if (dataRoutes.length > 1 || (dataRoutes.length === 1 && !Object.hasOwn(build.routes, dataRoutes[0]))) {
      res.status(404).set("Cache-Control", "no-store").json({ message: "Diese Daten gibt es nicht." });
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
  }
  app.use(guard);

  // Fingerprinted build assets never change: cached for a year.
  // A folder without its slash goes on to the German 404 (express would redirect, in English).
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y", etag: false, redirect: false }));
  // The other files of public/ (favicons, placeholder): only their addresses look at the disk.
  const publicFiles = new Set(readdirSync("public").filter((name) => name !== "build"));
  const servePublic = express.static("public", { maxAge: "1h" });
  app.use((req, res, next) => (publicFiles.has(req.path.slice(1)) ? servePublic(req, res, next) : next()));

  const makeHandler = (currentBuild) => {
    // Which pages ship scripts (the redirects of forms sent by Remix's browser code), and each
    // request's route pattern for its log line.
    currentBuild.entry.module.knowRoutes(currentBuild.routes, [...publicFiles].map((name) => `/${name}`));
    return createRequestHandler(currentBuild, currentBuild.mode);
  };
  let remixHandler = makeHandler(build);
  let loadedVersion = development ? statSync(VERSION_PATH, { throwIfNoEntry: false })?.mtimeMs : undefined;

  /** Remix's answer (remix-adapter.server.ts: no web stream for a finished page, gzip at once). */
  async function answerWithRemix(req, res) {
    if (development) {
      // `remix dev` rebuilt the app: load the new server build.
      const version = statSync(VERSION_PATH, { throwIfNoEntry: false })?.mtimeMs;
      if (version !== loadedVersion) {
        loadedVersion = version;
        build = await importBuild();
        remixHandler = makeHandler(build);
      }
    }
    const context = loadContext(req, { cspNonce: res.locals.cspNonce, requestId: req.requestId });
    await sendRemixResponse(req, res, await remixHandler(remixRequest(req, res), context));
  }

  // Addresses express did not answer from a file (a missing build asset) go to Remix.
  app.use((req, res, next) => answerWithRemix(req, res).catch(next));

  // Whatever error reaches express: a small German page, never a stack trace; logged unless it is
  // the client's fault.
  function onError(error, req, res, _next) {
    const status = Number(error?.status ?? error?.statusCode);
    const clientError = status >= 400 && status < 500;
    if (!clientError) logError(error, req.requestId);
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    sendErrorPage(res, clientError ? status : 500);
  }
  app.use(onError);

  // Every other address goes past express's router and its compression straight to the guard
  // and Remix: a static file is the only thing express does that this path does not.
  const publicPaths = new Set([...publicFiles].map((name) => `/${name}`));
  const isStatic = (url) => {
    const pathname = url.split("?")[0];
    return publicPaths.has(pathname) || /^\/build(?:\/|$)/i.test(pathname);
  };
  function answer(req, res) {
    if (isStatic(req.url)) return app(req, res);
    // What express's own first step does: its request and response methods (req.get, req.ip,
    // res.status, …) on node's objects.
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    req.res = res;
    res.req = req;
    res.locals = Object.create(null);
    if (req.pendingPage) capturePage(res, req.pendingPage);
    guard(req, res, () => answerWithRemix(req, res).catch((error) => onError(error, req, res)));
  }

  // express's req.secure, for the answers that never reach express.
  const trusted = app.get("trust proxy fn");
  const isHttps = (req) =>
    req.socket.encrypted
      ? true
      : trusted(req.socket.remoteAddress, 0) && String(req.headers["x-forwarded-proto"] ?? "").split(",")[0].trim() === "https";
  const pageCache = !development && config.pageCache;

  const server = createServer(SERVER_LIMITS, (req, res) => {
    // One log line per request, cached answers included: method, route pattern, status, time, id.
    const started = performance.now();
    req.requestId = newRequestId();
    res.setHeader("X-Request-Id", req.requestId);
    res.once("finish", () => logRequest({ id: req.requestId, method: req.method, url: req.url ?? "/", status: res.statusCode, ms: performance.now() - started }));
    if (pageCache && hostsFine(req)) {
      const nonce = newNonce();
      const https = isHttps(req);
      const headers = securityHeaders({ nonce, development, https });
      req.cspNonce = nonce;
      // A request that waited for another's render of the same page is answered on its own
      // when that answer could not be shared.
      const fallback = () => answer(req, res);
      const cached = answerFromCache(req, res, { https, headers, nonce, closing: stopping, fallback });
      if (cached === true) return;
      if (cached) req.pendingPage = cached;
    }
    answer(req, res);
  });
  // The port cannot be had: the reason in German; a worker's exit code tells the primary to end
  // the start instead of replacing it.
  const cannotListen = async (error) => {
    logNotice("fatal", listenProblem(error, config.port));
    if (role === "worker") process.exit(CANNOT_LISTEN);
    await shutdown().catch(() => undefined); // the start-up's traces (pid file)
    process.exit(1);
  };
  // Timeouts, connections per address and node's own refusals in German (connections.server.ts).
  guardConnections(server, { isProxy: (address) => trusted(address, 0), nonce: newNonce, https: (socket) => socket.encrypted === true });
  server.once("error", cannotListen);
  const listening = () => {
    server.off("error", cannotListen); // later errors are not about the port
    if (role === "single") announce();
    if (development) broadcastDevReady(build);
  };
  // HOST unset: every interface, as node does by default.
  if (config.host) server.listen(config.port, config.host, listening);
  else server.listen(config.port, listening);

  /**
   * Stops taking connections, lets requests in flight finish (at most SHUTDOWN_TIMEOUT_SECONDS),
   * then lets the mail worker finish its current mail and closes the database.
   */
  async function stop(signal) {
    if (stopping) return;
    stopping = true;
    logNotice("info", `${signal}: Server wird beendet …`);
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const deadline = setTimeout(() => {
      logNotice("warn", `Nach ${config.shutdownTimeoutSeconds} s werden die offenen Anfragen abgebrochen.`);
      server.closeAllConnections();
    }, config.shutdownTimeoutSeconds * 1000);
    await closed;
    clearTimeout(deadline);
    // A worker has no mail worker or scheduler: it only closes its database connection.
    if (role === "worker") closeDatabase();
    else {
      await shutdown();
      logNotice("info", "Server beendet.");
    }
    process.exit(0);
  }
  // A primary gone (killed): node's cluster ends its workers at once (docs/decisions/0014-cluster.md).
  onStopSignals(stop);
}

function announce(processes = 1) {
  const host = config.host?.includes(":") ? `[${config.host}]` : (config.host ?? "localhost");
  logNotice("info", `Lagerfeuer läuft auf http://${host}:${config.port}`);
  if (processes > 1) logNotice("info", `${processes} Prozesse beantworten Anfragen.`);
}

/**
 * The jobs process of the cluster: boot() started its mail worker and scheduler; it listens on no
 * port. A worker's MAIL_QUEUED, passed on by the primary, has the mail delivered at once.
 * SIGTERM/SIGINT (the primary sends SIGTERM once the workers have finished their requests): the
 * mail under way is finished, the scheduler stopped, the database closed. A primary gone (killed):
 * node's cluster ends this process at once; a mail under way goes out again after its claim.
 */
function runJobs() {
  const onMessage = (message) => {
    if (message?.type === MAIL_QUEUED) kickMailWorker();
  };
  process.on("message", onMessage);
  let stopping = false;
  async function stop(signal) {
    if (stopping) return;
    stopping = true;
    process.off("message", onMessage);
    logNotice("info", `${signal}: Mail-Versand und Zeitplan werden beendet …`);
    await shutdown(); // this process wrote no pid file: it stays the primary's
    process.exit(0);
  }
  onStopSignals(stop);
}

/**
 * The primary of the cluster: it has done the start-up work (migrations, pid file, temporary
 * uploads, first admin) before it forks anything; then it keeps `count` workers answering
 * requests and one jobs process running the mail worker and the scheduler, and hands out the
 * connections (round robin). Those jobs ran in the primary until a burst of enrolments showed
 * its event loop busy with 500 confirmation mails and their writes while no connection was
 * handed out (docs/decisions/0014-cluster.md). A process that dies is replaced by one of the same
 * kind (after a second when it died young, so a broken start does not spin); mail queued
 * meanwhile waits in the outbox for the new jobs process. SIGTERM/SIGINT: the workers finish
 * their requests, then the jobs process its mail under way, then the primary removes the pid
 * file and ends.
 */
function runPrimary(count) {
  // Workers run this file, also when the primary was started through scripts/start.mjs.
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) });
  let stopping = false;
  /** worker.id → its kind ("worker" or "jobs") and when it was forked. */
  const forked = new Map();
  let jobs; // the jobs process, while there is one
  const fork = (kind) => {
    if (stopping) return;
    const worker = cluster.fork({ LAGERFEUER_ROLE: kind });
    forked.set(worker.id, { kind, bornAt: Date.now() });
    if (kind === "jobs") jobs = worker;
  };
  let announced = false;
  cluster.on("listening", () => {
    if (!announced) announce(count);
    announced = true;
  });
  cluster.on("exit", (worker, code, signal) => {
    const { kind, bornAt } = forked.get(worker.id);
    forked.delete(worker.id);
    if (worker === jobs) jobs = undefined;
    if (code === CANNOT_LISTEN) return void stop("Port nicht verfügbar", 1);
    if (stopping) return;
    const what = kind === "jobs" ? "Mail-Versand und Zeitplan" : "Anfragen";
    logNotice("error", `Prozess ${worker.process.pid} (${what}) wurde beendet (${signal ?? `Code ${code}`}); ein neuer übernimmt.`);
    setTimeout(() => fork(kind), Date.now() - bornAt < 5_000 ? 1_000 : 0);
  });
  for (let i = 0; i < count; i++) fork("worker");
  fork("jobs");
  // A worker queued mail: the jobs process delivers it now, not at its next poll. With no jobs
  // process connected (just died, or ending), the mail waits for the next one's first round.
  cluster.on("message", (worker, message) => {
    if (message?.type !== MAIL_QUEUED || worker === jobs || !jobs?.isConnected()) return;
    jobs.send(message, () => {}); // an error here only means the jobs process is going
  });

  /** SIGTERM to each of `workers` still alive; resolves when all have ended (SIGKILL after the deadline). */
  async function end(workers) {
    const living = workers.filter((w) => w && !w.isDead());
    const exited = Promise.all(living.map((w) => new Promise((resolve) => w.once("exit", resolve))));
    for (const worker of living) worker.process.kill("SIGTERM");
    const deadline = setTimeout(() => {
      for (const worker of living) if (!worker.isDead()) worker.process.kill("SIGKILL");
    }, (config.shutdownTimeoutSeconds + 5) * 1000);
    await exited;
    clearTimeout(deadline);
  }

  async function stop(signal, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    logNotice("info", `${signal}: Server wird beendet …`);
    // Requests first (they may queue mail), then the jobs process, then the primary's own end.
    await end(Object.values(cluster.workers ?? {}).filter((w) => w !== jobs));
    await end([jobs]);
    await shutdown();
    // A start that failed (the port taken) said why already; it did not end in order.
    if (exitCode === 0) logNotice("info", "Server beendet.");
    process.exit(exitCode);
  }
  onStopSignals(stop);
}
