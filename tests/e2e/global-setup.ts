// Starts the built server once for all browser tests, on a temporary database, upload folder
// and mail folder, and hands their paths to the tests.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { TestProject } from "vitest/node";
import { buildApp, staleBuild } from "../../scripts/build-state.mjs";
import { logLines } from "../support/log-lines";
import { freePort } from "../support/smtp";

const ADMIN_EMAIL = "admin@example.org";

export default async function setup(project: TestProject) {
  // The tests drive the production build of the sources as they are, as npm start serves it.
  if (staleBuild() && !buildApp()) throw new Error("remix build failed");
  const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-e2e-"));
  // Another port when the free one was taken before the server opened it (three tries).
  let started = await startServer(dir);
  for (let tries = 1; started === "port taken" && tries < 3; tries++) started = await startServer(dir);
  if (started === "port taken") throw new Error("No free port for the server in three tries");
  const { server, exited, paths } = started;

  project.provide("e2e", paths);

  return async () => {
    server.kill("SIGTERM");
    await exited;
    // The server's log of the whole browser run holds no personal data of the people the tests
    // made: no name, e-mail address or IBAN (issue 14: logs never carry form contents).
    const logFiles = [path.join(dir, "server.out"), paths.serverErrorLog];
    const leaks = personalDataIn(paths.databasePath, logFiles);
    // Every line of it is one JSON object (pino) with level, time, process and message, the
    // server's start and stop included: a log collector reads it line by line.
    const log = logFiles.map((file) => (existsSync(file) ? readFileSync(file, "utf8") : "")).join("\n");
    rmSync(dir, { recursive: true, force: true });
    if (leaks.length) throw new Error(`The server's log contains personal data: ${leaks.slice(0, 10).join(", ")}`);
    const news = logLines(log).filter((line) => line.msg !== "request").map((line) => line.msg);
    for (const expected of [/^Erster Admin angelegt: admin@example\.org$/, /^Lagerfeuer läuft auf http:\/\/localhost:\d+$/, /^SIGTERM: Server wird beendet …$/, /^Server beendet\.$/]) {
      if (!news.some((msg) => expected.test(msg))) throw new Error(`The server's log lacks a line ${expected}: ${news.join(" | ")}`);
    }
  };
}

/** The built server on a free port, once it answers /healthz; "port taken" if that port went meanwhile. */
async function startServer(dir: string) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const paths = {
    baseUrl,
    databasePath: path.join(dir, "data", "e2e.db"),
    uploadsDir: path.join(dir, "uploads"),
    mailDir: path.join(dir, "mail"),
    sessionSecret: "e2e-secret-e2e-secret-e2e-secret-e2e-0123",
    serverErrorLog: path.join(dir, "server.err"),
  };
  const server = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      // One process: the tests read the server's mail folder and write fixtures into its database;
      // cluster mode has tests of its own (tests/e2e/cluster.test.ts).
      WEB_CONCURRENCY: "1",
      PORT: String(port),
      APP_URL: baseUrl,
      DATABASE_PATH: paths.databasePath,
      UPLOADS_DIR: paths.uploadsDir,
      MAIL_DIR: paths.mailDir,
      SESSION_SECRET: paths.sessionSecret,
      ADMIN_EMAIL,
      ADMIN_PASSWORD: "Admin-Passwort-1",
    },
    stdio: ["ignore", openSync(path.join(dir, "server.out"), "a"), openSync(paths.serverErrorLog, "a")],
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) {
      await exited;
      if (readFileSync(paths.serverErrorLog, "utf8").includes(`Port ${port} ist schon belegt`)) return "port taken" as const;
      throw new Error(`The server stopped at start (exit ${server.exitCode}); see ${paths.serverErrorLog}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("The server did not answer /healthz within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { server, exited, paths };
}

/** Names, e-mail addresses and IBANs of the test's people that appear in the log files. */
function personalDataIn(databasePath: string, logFiles: string[]) {
  const log = logFiles.filter((f) => existsSync(f)).map((f) => readFileSync(f, "utf8")).join("\n");
  const db = new Database(databasePath, { readonly: true });
  const values = db
    .prepare(
      `select email as v from users union select first_name || ' ' || last_name from users
       union select first_name || ' ' || last_name from participants union select iban from sepa_mandates`,
    )
    .all() as { v: string }[];
  db.close();
  // The first admin's address is the operator's own setting (ADMIN_EMAIL), announced at start.
  return [...new Set(values.map((r) => r.v))].filter((v) => v && v.length >= 6 && v !== ADMIN_EMAIL && log.includes(v));
}
