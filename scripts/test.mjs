// `npm test`: type check, build, then unit, integration and browser tests (vitest), then the
// bench's quick mode.
// Browser tests need Debian's Chromium at /usr/bin/chromium; as root it is installed with
// apt-get when missing, otherwise we stop with one line saying how. No browser is downloaded.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const SUMMARY = ".cache/test-summary.txt";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`✗ ${label} fehlgeschlagen`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    run("Chromium installieren (Debian-Paket)", "sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"]);
  } else {
    console.error(`Chromium fehlt: bitte als root "apt-get install -y chromium" ausführen (erwartet unter ${CHROMIUM}).`);
    process.exit(1);
  }
}

const bin = (name) => path.resolve("node_modules", ".bin", name);
run("Typprüfung (tsc)", bin("tsc"), ["--noEmit"]);
run("Build (remix build)", bin("remix"), ["build"], { NODE_ENV: "production" });
rmSync(SUMMARY, { force: true });
console.log("\n▶ Tests (vitest)");
const tests = spawnSync(
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=./tests/support/summary-reporter.ts", ...process.argv.slice(2)],
  { stdio: "inherit" },
);
if (existsSync(SUMMARY)) process.stdout.write(`\n${readFileSync(SUMMARY, "utf8")}`);
if (tests.status !== 0) process.exit(tests.status ?? 1);
// The bench's quick mode (about 30 s): fails on wrong answers and overbooking, never on timing.
// Not when only some test files were asked for.
if (process.argv.length <= 2) run("Bench, kurz (npm run bench -- --quick)", process.execPath, ["scripts/bench.mjs", "--quick"], { BENCH_BUILD: "0", BENCH_RESULTS_DIR: ".cache/bench" });
