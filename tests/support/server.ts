// A server of its own for a test: the built server.mjs on a temporary data folder, with the
// settings the test needs (a proxy in front, a shutdown to watch, an empty database).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { openDatabase } from "~/services/db.server";
import { createUserSession } from "~/services/session.server";
import { freePort } from "./smtp";

export { logLines } from "./log-lines";

export type OwnServer = {
  baseUrl: string;
  port: number;
  databasePath: string;
  uploadsDir: string;
  mailDir: string;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string;
  /** What it wrote to stdout so far, and to stderr. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** A session cookie (Cookie header value) for the user with this address. */
  sessionCookie: (email: string) => Promise<string>;
  /** Reads the server's database (read-only). */
  query: <T>(sql: string, ...params: unknown[]) => T[];
  stop: () => Promise<void>;
};

export const ADMIN = { email: "admin@example.org", password: "Admin-Passwort-1" };

/**
 * Starts the server; again on another port (three tries) when the free port it was given was
 * taken in between by another test's process (the server ends before it writes anything then).
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  for (let tries = 1; ; tries++) {
    try {
      return await startOnce(env);
    } catch (error) {
      if (env.PORT !== undefined || tries === 3 || !/ist schon belegt/.test(String(error))) throw error;
    }
  }
}

async function startOnce(env: Record<string, string>): Promise<OwnServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-own-"));
  const port = await freePort();
  const databasePath = env.DATABASE_PATH ?? path.join(dir, "data", "own.db");
  const uploadsDir = env.UPLOADS_DIR ?? path.join(dir, "uploads");
  const mailDir = env.MAIL_DIR ?? path.join(dir, "mail");
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      WEB_CONCURRENCY: "1", // one process unless the test asks for a cluster
      PORT: String(port),
      APP_URL: "",
      HOST: "127.0.0.1",
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: uploadsDir,
      MAIL_DIR: mailDir,
      SESSION_SECRET: process.env.SESSION_SECRET!,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const written = { stdout: "", stderr: "" };
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream]!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      written[stream] += chunk.toString("utf8");
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server stopped at start (exit ${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not answer /healthz within 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseUrl,
    port,
    databasePath,
    uploadsDir,
    mailDir,
    child,
    output: () => output,
    stdout: () => written.stdout,
    stderr: () => written.stderr,
    exited,
    async sessionCookie(email) {
      const { db, sqlite } = openDatabase(databasePath);
      try {
        const user = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
        if (!user) throw new Error(`no user ${email}`);
        const setCookie = await createUserSession(user.id, new Request(baseUrl), db);
        return setCookie.split(";")[0];
      } finally {
        sqlite.close();
      }
    },
    query<T>(sql: string, ...params: unknown[]) {
      const sqlite = new Database(databasePath, { readonly: true });
      try {
        return sqlite.prepare(sql).all(...params) as T[];
      } finally {
        sqlite.close();
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

