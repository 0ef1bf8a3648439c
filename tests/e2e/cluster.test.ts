// All cores (issue 14, item 3): WEB_CONCURRENCY=2 forks two workers; a worker killed with
// SIGKILL is replaced while the other keeps answering; the mail worker and the scheduler run in
// the primary alone; SIGTERM stops the whole cluster cleanly.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { readMailDir, waitForMail } from "../support/mail";
import { ADMIN, startOwnServer } from "../support/server";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The processes the primary forked (Linux). */
function workersOf(pid: number) {
  const file = `/proc/${pid}/task/${pid}/children`;
  return existsSync(file) ? readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number) : [];
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One request on a connection of its own, so that it goes to whichever worker is next. */
function status(url: string, options: { method?: string; body?: string } = {}) {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        headers: options.body ? { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(url).origin } : {},
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(50);
  }
}

const BACKGROUND_LINE = /Mail-Versand und Zeitplan laufen in Prozess (\d+)\./g;

describe("cluster", () => {
  it("replaces a killed worker while the other answers; mails go out once, from the primary", async () => {
    const app = await startOwnServer({ WEB_CONCURRENCY: "2" });
    try {
      const primary = app.child.pid!;
      const first = await until("two workers", () => (workersOf(primary).length === 2 ? workersOf(primary) : undefined));
      expect([...app.output().matchAll(BACKGROUND_LINE)].map((m) => Number(m[1]))).toEqual([primary]);
      for (let i = 0; i < 10; i++) expect(await status(`${app.baseUrl}/`)).toBe(200);
      // Left for the start-up work of a second process to remove, if one ran it: an upload being
      // received (cleaned at start) and an expired session (the scheduler's tidy-up runs at start).
      mkdirSync(path.join(app.uploadsDir, ".tmp"), { recursive: true });
      const receiving = path.join(app.uploadsDir, ".tmp", "upload-in-flight");
      writeFileSync(receiving, "half an upload");
      const sqlite = new Database(app.databasePath);
      sqlite.prepare("INSERT INTO sessions (id_hash, user_id, expires_at) VALUES ('abgelaufen', (SELECT min(id) FROM users), 1)").run();
      sqlite.close();

      process.kill(first[0], "SIGKILL");
      await until("the worker to die", () => !alive(first[0]));
      // Requests keep being answered by the other worker while the new one starts.
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await status(`${app.baseUrl}/`));
      expect(answers).toEqual(Array(30).fill(200));
      const replaced = await until("a new worker", () => {
        const now = workersOf(primary);
        return now.length === 2 && !now.includes(first[0]) ? now : undefined;
      });
      expect(replaced).toContain(first[1]);
      await pause(1_000); // the new worker has started and would have done its start-up work
      expect(existsSync(receiving)).toBe(true);
      expect(app.query("SELECT id_hash FROM sessions WHERE id_hash = 'abgelaufen'")).toHaveLength(1);
      for (let i = 0; i < 10; i++) expect(await status(`${app.baseUrl}/healthz`)).toBe(200);

      // A mail queued by a worker is sent by the primary's mail worker, exactly once.
      expect(await status(`${app.baseUrl}/forgot`, { method: "POST", body: `email=${encodeURIComponent(ADMIN.email)}` })).toBeLessThan(400);
      await waitForMail(app.mailDir, ADMIN.email, /.+/, 15_000);
      await pause(4_500); // two more polls of the mail worker
      const mails = (await readMailDir(app.mailDir)).filter((m) => m.to.includes(ADMIN.email));
      expect(mails).toHaveLength(1);
      expect(app.query<{ status: string }>("select status from mail_outbox")).toEqual([{ status: "sent" }]);
      // The replacement did not start a second mail worker or scheduler.
      expect([...app.output().matchAll(BACKGROUND_LINE)].map((m) => Number(m[1]))).toEqual([primary]);

      // A worker that queued mail tells the primary: the mail leaves at once, not at the primary's
      // next poll (every 2 s; four in a row under 800 ms by chance: about 1 in 40).
      const mailFiles = () => readdirSync(app.mailDir).filter((f) => f.endsWith(".eml")).length;
      for (let i = 0; i < 4; i++) {
        const before = mailFiles();
        const asked = Date.now();
        expect(await status(`${app.baseUrl}/forgot`, { method: "POST", body: `email=${encodeURIComponent(ADMIN.email)}` })).toBeLessThan(400);
        const waited = await until("the mail", () => (mailFiles() > before ? Date.now() - asked : undefined), 5_000);
        expect(waited).toBeLessThan(800);
      }

      app.child.kill("SIGTERM");
      expect(await app.exited).toBe(0);
      for (const pid of replaced) expect(alive(pid)).toBe(false);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it("workers end when the primary is killed (nothing left holding the database)", async () => {
    const app = await startOwnServer({ WEB_CONCURRENCY: "2" });
    try {
      const primary = app.child.pid!;
      const workers = await until("two workers", () => (workersOf(primary).length === 2 ? workersOf(primary) : undefined));
      await until("both listening", () => /2 Prozesse beantworten Anfragen/.test(app.output()));
      await pause(500);
      process.kill(primary, "SIGKILL");
      await until("the workers to end", () => workers.every((pid) => !alive(pid)), 10_000);
    } finally {
      await app.stop();
    }
  }, 30_000);

  it("refuses a WEB_CONCURRENCY that is not a number of processes", async () => {
    await expect(startOwnServer({ WEB_CONCURRENCY: "viele" })).rejects.toThrow(/WEB_CONCURRENCY muss eine ganze Zahl von 1 bis 64 sein/);
  });
});
