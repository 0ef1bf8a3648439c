// Runs before every test file, in that file's own process: a fresh temporary data folder
// (database, uploads, mails) and settings that point to it. A console.error, or an error the
// logger writes to stderr, fails the test.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, inject, vi } from "vitest";

const e2e = inject("e2e");
let dir: string | undefined;

if (e2e) {
  // Browser tests share the running server's files: fixtures write users and sessions there.
  process.env.DATABASE_PATH = e2e.databasePath;
  process.env.UPLOADS_DIR = e2e.uploadsDir;
  process.env.MAIL_DIR = e2e.mailDir;
  process.env.SESSION_SECRET = e2e.sessionSecret;
} else {
  dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-test-"));
  process.env.DATABASE_PATH = path.join(dir, "test.db");
  process.env.UPLOADS_DIR = path.join(dir, "uploads");
  process.env.MAIL_DIR = path.join(dir, "mail");
  process.env.SESSION_SECRET = "test-secret-test-secret-test-secret-0123";
}
process.env.NODE_ENV = "test";
process.env.ADMIN_PASSWORD ??= "Admin-Passwort-1";
process.env.APP_URL ??= "http://localhost:3000";

// In browser tests, what the server wrote to its error log during a test fails that test too.
let serverLogSize = 0;
const serverLog = e2e?.serverErrorLog;
const logSize = () => (serverLog && existsSync(serverLog) ? statSync(serverLog).size : 0);

let errorSpy: ReturnType<typeof vi.spyOn> | undefined;
const consoleState = globalThis as unknown as { __allowConsoleErrors?: boolean; __stderrWrites?: string[] };
const stderrWrite = process.stderr.write;
beforeEach(() => {
  consoleState.__allowConsoleErrors = false;
  errorSpy = vi.spyOn(console, "error");
  // The logger's errors (pino, app/services/log.server.ts) go to stderr: kept for loggedErrors()
  // and written on as before.
  const written: string[] = (consoleState.__stderrWrites = []);
  process.stderr.write = function (this: typeof process.stderr, chunk: string | Uint8Array, ...rest: never[]) {
    written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return stderrWrite.call(this, chunk, ...rest);
  } as typeof process.stderr.write;
  serverLogSize = logSize();
});
afterEach(() => {
  const calls = errorSpy?.mock.calls ?? [];
  errorSpy?.mockRestore();
  process.stderr.write = stderrWrite;
  if (serverLog && logSize() > serverLogSize) {
    const written = readFileSync(serverLog).subarray(serverLogSize).toString("utf8");
    serverLogSize = logSize();
    throw new Error(`The server logged an error during the test:\n${written}`);
  }
  if (calls.length > 0 && !consoleState.__allowConsoleErrors) {
    throw new Error(`console.error was called during the test:\n${calls.map((c) => c.map(String).join(" ")).join("\n")}`);
  }
  const logged = (consoleState.__stderrWrites ?? []).join("");
  if (logged && !consoleState.__allowConsoleErrors) throw new Error(`The logger wrote an error during the test:\n${logged}`);
});

afterAll(async () => {
  const { closeDatabase } = await import("~/services/db.server");
  closeDatabase();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

declare module "vitest" {
  export interface ProvidedContext {
    e2e?: {
      baseUrl: string;
      databasePath: string;
      uploadsDir: string;
      mailDir: string;
      sessionSecret: string;
      serverErrorLog: string;
    };
  }
}
