// `npm start`: builds the app if there is no build or the sources are newer, then serves the
// production build (server.mjs migrates the database at start).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

process.env.NODE_ENV ??= "production";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const buildFile = path.resolve("build/index.js");
const sources = [path.resolve("app"), path.resolve("db"), path.resolve("remix.config.js"), path.resolve("package.json")];
const builtAt = existsSync(buildFile) ? statSync(buildFile).mtimeMs : 0;
const changedAt = Math.max(...sources.map((s) => (statSync(s).isDirectory() ? newestMtime(s) : statSync(s).mtimeMs)));

if (builtAt < changedAt || !existsSync("public/build")) {
  console.log("Baue die App …");
  const result = spawnSync(process.execPath, [path.resolve("node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import("../server.mjs");
