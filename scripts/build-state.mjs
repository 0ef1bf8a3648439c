// Whether `build/` may be served as it is (`npm start`, the browser tests): it must be there, be
// newer than every source, and be a production build. `npm run dev` leaves a development build
// behind (React's development code, slower and with its warnings); served by `npm start` it would
// look like the real app.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createJsonLog } from "./json-log.mjs";

const SOURCES = ["app", "db", "remix.config.js", "package.json"];

function newestMtime(file) {
  if (!statSync(file).isDirectory()) return statSync(file).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/** The mode (`production`, `development`) a Remix server build was made in, from its source text. */
export function buildMode(source) {
  // esbuild renames the declaration (`var mode2 = "production"`) and exports it `as mode`.
  const name = /\b([\w$]+) as mode\b/.exec(source)?.[1] ?? "mode";
  const declared = new RegExp(`(?:^|[\\s,;])${name.replace(/\$/g, "\\$")} = "(\\w+)"`, "m").exec(source);
  return declared?.[1];
}

/** Why the build in `root` must be made again (German, for the console), or null when it may be served. */
export function staleBuild(root = process.cwd()) {
  const buildFile = path.join(root, "build/index.js");
  if (!existsSync(buildFile)) return "Es gibt noch kein Build.";
  if (!existsSync(path.join(root, "public/build"))) return "Der Ordner public/build fehlt.";
  const changedAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
  if (statSync(buildFile).mtimeMs < changedAt) return "Das Build ist älter als die Quellen.";
  const mode = buildMode(readFileSync(buildFile, "utf8"));
  if (mode !== "production") return `Das Build ist ein Entwicklungs-Build (${mode ?? "unbekannt"}, von npm run dev).`;
  return null;
}

/** `remix build` for production in `root`, with node's spawnSync `options` (its output's way). */
function remixBuild(root, options) {
  return spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
    ...options,
  });
}

/** `remix build` for production in `root`; false when it failed (its output went to the console). */
export function buildApp(root = process.cwd()) {
  return remixBuild(root, { stdio: "inherit" }).status === 0;
}

/**
 * `npm start`'s build step: builds when `staleBuild` says so, and tells it as JSON lines like the
 * server's log that follows (why, then how long it took). The compiler's own output (English) is
 * kept back unless the build fails; then it goes to stderr as it is, for whoever fixes the code,
 * followed by the line saying the start ends. False when the build failed.
 */
export function buildForStart(root = process.cwd()) {
  const stale = staleBuild(root);
  if (!stale) return true;
  const log = createJsonLog();
  log.info(`${stale} Baue die App …`);
  const started = performance.now();
  const result = remixBuild(root, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status === 0) {
    log.info(`App gebaut in ${((performance.now() - started) / 1000).toFixed(1).replace(".", ",")} s.`);
    return true;
  }
  process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? `${result.error.message}\n` : ""}`);
  log.fatal("Die App ließ sich nicht bauen (die Meldungen des Compilers stehen darüber). Der Server startet nicht.");
  return false;
}
