// All cores (issue 14, item 3): WEB_CONCURRENCY=2 forks two workers and one jobs process; a
// worker killed with SIGKILL is replaced while the other keeps answering; the mail worker and the
// scheduler run in the jobs process alone, at a lower CPU priority, and a killed jobs process is
// replaced; SIGTERM stops the whole cluster cleanly; a port that is taken is said in German.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { getPriority, tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { readMailDir, waitForMail } from "../support/mail";
import { ADMIN, logLines, startOwnServer } from "../support/server";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The processes the primary forked (Linux): its workers and its jobs process. */
function childrenOf(pid: number) {
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
/** The processes that said they run the mail worker and the scheduler, in order. */
const backgroundPids = (output: string) => [...output.matchAll(BACKGROUND_LINE)].map((m) => Number(m[1]));

/** The primary's two workers and its jobs process (the `nth` one started), once all three are there. */
async function clusterOf(primary: number, output: () => string, nth = 1) {
  const jobs = await until("the jobs process", () => backgroundPids(output())[nth - 1]);
  const children = await until("two workers and the jobs process", () => {
    const now = childrenOf(primary);
    return now.length === 3 && now.includes(jobs) ? now : undefined;
  });
  return { jobs, workers: children.filter((pid) => pid !== jobs) };
}

/**
 * Asks for `/` until each of `workers` has answered (its pid in a request's log line). Until then
 * one may not listen yet, and killing the only one listening would close the port.
 */
async function untilAllAnswer(baseUrl: string, output: () => string, workers: number[]) {
  const deadline = Date.now() + 15_000;
  while (!workers.every((pid) => output().includes(`"pid":${pid},`))) {
    if (Date.now() > deadline) throw new Error("timed out waiting for every worker to answer");
    expect(await status(`${baseUrl}/`)).toBe(200);
  }
}

/** Asks for a password reset for the admin: a worker queues a mail. */
const askForReset = (baseUrl: string) => status(`${baseUrl}/forgot`, { method: "POST", body: `email=${encodeURIComponent(ADMIN.email)}` });

const mailFiles = (mailDir: string) => (existsSync(mailDir) ? readdirSync(mailDir).filter((f) => f.endsWith(".eml")).length : 0);

describe("cluster", () => {
  // The tests that time mail give the jobs process nice 5, still below the workers: at the
  // default 19 a test machine busy with other tests gives it too little CPU to time anything.
  it("replaces a killed worker while the other answers; mails go out once, from the jobs process", async () => {
    const app = await startOwnServer({ WEB_CONCURRENCY: "2", JOBS_NICE: "5" });
    try {
      const primary = app.child.pid!;
      const { jobs, workers: first } = await clusterOf(primary, app.output);
      expect(first).toHaveLength(2);
      expect(backgroundPids(app.output())).toEqual([jobs]);
      // The start-up work was the primary's: the pid file names it, not the jobs process.
      expect(readFileSync(`${app.databasePath}.pid`, "utf8").trim()).toBe(String(primary));
      // The jobs process gives way to the workers; the workers run at the primary's priority.
      expect(getPriority(jobs)).toBeGreaterThan(getPriority(primary));
      for (const pid of first) expect(getPriority(pid)).toBe(getPriority(primary));
      for (let i = 0; i < 10; i++) expect(await status(`${app.baseUrl}/`)).toBe(200);
      await untilAllAnswer(app.baseUrl, app.output, first);
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
        const now = childrenOf(primary);
        return now.length === 3 && !now.includes(first[0]) ? now : undefined;
      });
      expect(replaced).toContain(first[1]);
      expect(replaced).toContain(jobs); // a worker is replaced by a worker, not by a jobs process
      // The new worker has answered, so it has started and would have done its start-up work.
      await untilAllAnswer(app.baseUrl, app.output, replaced.filter((pid) => pid !== jobs));
      expect(existsSync(receiving)).toBe(true);
      expect(app.query("SELECT id_hash FROM sessions WHERE id_hash = 'abgelaufen'")).toHaveLength(1);
      for (let i = 0; i < 10; i++) expect(await status(`${app.baseUrl}/healthz`)).toBe(200);

      // A mail queued by a worker is sent by the jobs process's mail worker, exactly once.
      expect(await askForReset(app.baseUrl)).toBeLessThan(400);
      await waitForMail(app.mailDir, ADMIN.email, /.+/, 15_000);
      await pause(4_500); // two more polls of the mail worker
      const mails = (await readMailDir(app.mailDir)).filter((m) => m.to.includes(ADMIN.email));
      expect(mails).toHaveLength(1);
      expect(app.query<{ status: string }>("select status from mail_outbox")).toEqual([{ status: "sent" }]);
      // The replacement did not start a second mail worker or scheduler.
      expect(backgroundPids(app.output())).toEqual([jobs]);

      app.child.kill("SIGTERM");
      expect(await app.exited).toBe(0);
      for (const pid of replaced) expect(alive(pid)).toBe(false);
      // The jobs process was told to stop after the workers (its line follows theirs), and the
      // primary removed its pid file.
      const output = app.output();
      const jobsStopped = output.indexOf("SIGTERM: Mail-Versand und Zeitplan werden beendet");
      expect(jobsStopped).toBeGreaterThan(output.lastIndexOf("SIGTERM: Server wird beendet"));
      expect(existsSync(`${app.databasePath}.pid`)).toBe(false);

      // Every line of all four processes is one JSON object (pino), requests and the server's own
      // news alike: its start, the process replaced (an error, on stderr), its stop.
      const news = logLines(app.stdout()).filter((line) => line.msg !== "request");
      expect(news).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ level: 30, pid: primary, msg: expect.stringMatching(/^Lagerfeuer läuft auf http:\/\/127\.0\.0\.1:\d+$/) }),
          expect.objectContaining({ level: 30, pid: primary, msg: "2 Prozesse beantworten Anfragen." }),
          expect.objectContaining({ level: 30, pid: jobs, msg: `Mail-Versand und Zeitplan laufen in Prozess ${jobs}.` }),
          expect.objectContaining({ level: 30, pid: primary, msg: "SIGTERM: Server wird beendet …" }),
          expect.objectContaining({ level: 30, pid: jobs, msg: "SIGTERM: Mail-Versand und Zeitplan werden beendet …" }),
          expect.objectContaining({ level: 30, pid: primary, msg: "Server beendet." }),
        ]),
      );
      expect(logLines(app.stderr())).toEqual([
        expect.objectContaining({ level: 50, pid: primary, msg: `Prozess ${first[0]} (Anfragen) wurde beendet (SIGKILL); ein neuer übernimmt.` }),
      ]);
    } finally {
      await app.stop();
    }
  }, 60_000);

  // The mail worker's poll five minutes away: a mail that leaves within seconds was delivered
  // because the jobs process was told (timing it against a 2 s poll failed on a busy machine).
  it("a mail a worker queued leaves at once: the worker tells the primary, the primary the jobs process", async () => {
    const app = await startOwnServer({ WEB_CONCURRENCY: "2", JOBS_NICE: "5", MAIL_POLL_SECONDS: "300" });
    try {
      const { workers } = await clusterOf(app.child.pid!, app.output);
      await untilAllAnswer(app.baseUrl, app.output, workers);
      for (let i = 0; i < 3; i++) {
        expect(await askForReset(app.baseUrl)).toBeLessThan(400);
        await until("the mail", () => mailFiles(app.mailDir) === i + 1, 20_000);
      }
      expect(app.query<{ status: string }>("select status from mail_outbox")).toEqual(Array(3).fill({ status: "sent" }));
    } finally {
      await app.stop();
    }
  }, 90_000);

  it("replaces a killed jobs process; mail queued meanwhile and afterwards goes out once", async () => {
    const app = await startOwnServer({ WEB_CONCURRENCY: "2", JOBS_NICE: "5", MAIL_POLL_SECONDS: "300" });
    try {
      const primary = app.child.pid!;
      const { jobs, workers } = await clusterOf(primary, app.output);

      process.kill(jobs, "SIGKILL");
      await until("the jobs process to die", () => !alive(jobs));
      // Queued while there may be no jobs process: waits in the outbox for the next one.
      expect(await askForReset(app.baseUrl)).toBeLessThan(400);
      const next = await clusterOf(primary, app.output, 2);
      expect(next.jobs).not.toBe(jobs);
      expect(next.workers.sort()).toEqual(workers.sort()); // a jobs process is replaced by a jobs process
      expect(backgroundPids(app.output())).toEqual([jobs, next.jobs]);
      expect(app.output()).toContain(`Prozess ${jobs} (Mail-Versand und Zeitplan) wurde beendet (SIGKILL)`);
      expect(getPriority(next.jobs)).toBeGreaterThan(getPriority(primary));
      // The new jobs process's first round delivers it (its next poll is five minutes away).
      await until("the mail queued meanwhile", () => mailFiles(app.mailDir) === 1, 20_000);

      // Queued afterwards: the new jobs process is told and delivers at once.
      expect(await askForReset(app.baseUrl)).toBeLessThan(400);
      await until("the mail queued afterwards", () => mailFiles(app.mailDir) === 2, 20_000);
      await pause(1_000);
      expect((await readMailDir(app.mailDir)).filter((m) => m.to.includes(ADMIN.email))).toHaveLength(2);
      expect(app.query<{ status: string }>("select status from mail_outbox")).toEqual([{ status: "sent" }, { status: "sent" }]);

      app.child.kill("SIGTERM");
      expect(await app.exited).toBe(0);
      for (const pid of [next.jobs, ...workers]) expect(alive(pid)).toBe(false);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it("workers and the jobs process end when the primary is killed (nothing left holding the database)", async () => {
    const app = await startOwnServer({ WEB_CONCURRENCY: "2" });
    try {
      const primary = app.child.pid!;
      const { jobs, workers } = await clusterOf(primary, app.output);
      expect(getPriority(jobs)).toBe(19); // the default: the lowest priority
      await until("both listening", () => /2 Prozesse beantworten Anfragen/.test(app.output()));
      await pause(500);
      process.kill(primary, "SIGKILL");
      await until("the workers and the jobs process to end", () => [...workers, jobs].every((pid) => !alive(pid)), 10_000);
    } finally {
      await app.stop();
    }
  }, 30_000);

  it("refuses a WEB_CONCURRENCY that is not a number of processes", async () => {
    // As a JSON line of the log, at level fatal (60), as every other reason a start ends.
    await expect(startOwnServer({ WEB_CONCURRENCY: "viele" })).rejects.toThrow(/\{"level":60,[^\n]*"msg":"WEB_CONCURRENCY muss eine ganze Zahl von 1 bis 64 sein, ist aber „viele“\."\}/);
    await expect(startOwnServer({ WEB_CONCURRENCY: "2", JOBS_NICE: "20" })).rejects.toThrow(/\{"level":60,[^\n]*"msg":"JOBS_NICE muss eine ganze Zahl von 0 bis 19 sein, ist aber „20“\."\}/);
  });

  it("refuses a second server on the same database, and leaves the first one's pid file", async () => {
    const first = await startOwnServer();
    try {
      const pidFile = `${first.databasePath}.pid`;
      const pid = readFileSync(pidFile, "utf8").trim();
      for (const processes of ["1", "2"]) {
        await expect(startOwnServer({ WEB_CONCURRENCY: processes, DATABASE_PATH: first.databasePath })).rejects.toThrow(
          new RegExp(`exit 1\\):\\n[^]*Lagerfeuer läuft schon mit dieser Datenbank \\(Prozess ${pid}\\)`),
        );
        expect(readFileSync(pidFile, "utf8").trim()).toBe(pid);
      }
      // The lock tells, not the pid file: also when it names another process (another container's).
      rmSync(pidFile);
      await expect(startOwnServer({ DATABASE_PATH: first.databasePath })).rejects.toThrow(/exit 1\):\n[^]*Lagerfeuer läuft schon mit dieser Datenbank, oder sie wird gerade wiederhergestellt\. Zwei Server/);
      expect(await status(`${first.baseUrl}/healthz`)).toBe(200);
    } finally {
      await first.stop();
    }
    // A pid file left over whose number now belongs to another program (after a restart): no hindrance.
    const other = spawn("sleep", ["30"]);
    const databasePath = path.join(mkdtempSync(path.join(tmpdir(), "lagerfeuer-pid-")), "alt.db");
    writeFileSync(`${databasePath}.pid`, String(other.pid));
    try {
      const next = await startOwnServer({ DATABASE_PATH: databasePath });
      expect(readFileSync(`${databasePath}.pid`, "utf8").trim()).toBe(String(next.child.pid));
      await next.stop();
    } finally {
      other.kill();
    }
  });

  it("says in German when the database's folder cannot be made or written, and ends with 1", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-ordner-"));
    writeFileSync(path.join(dir, "datei"), "kein Ordner"); // a file where the data folder should be
    for (const processes of ["1", "2"]) {
      await expect(startOwnServer({ WEB_CONCURRENCY: processes, DATABASE_PATH: path.join(dir, "datei", "lagerfeuer.db") })).rejects.toThrow(
        /exit 1\):\n[^]*lagerfeuer\.db\.lock lässt sich nicht anlegen, öffnen oder beschreiben \((?:EEXIST|ENOTDIR)\)\. Stimmt DATABASE_PATH, gibt es den Ordner, und darf der Benutzer, unter dem Lagerfeuer läuft, darin schreiben\?/,
      );
    }
  });

  it("says in German when the database file is no SQLite file, and ends with 1", async () => {
    const databasePath = path.join(mkdtempSync(path.join(tmpdir(), "lagerfeuer-datei-")), "lagerfeuer.db");
    writeFileSync(databasePath, "Das ist keine Datenbank, sondern eine Notiz, die hier versehentlich liegt. ".repeat(3));
    for (const processes of ["1", "2"]) {
      await expect(startOwnServer({ WEB_CONCURRENCY: processes, DATABASE_PATH: databasePath })).rejects.toThrow(
        /exit 1\):\n[^]*lagerfeuer\.db ist keine Datenbank von Lagerfeuer oder lässt sich nicht beschreiben \(SQLITE_NOTADB\)\./,
      );
    }
  });

  it("says in German that the port is taken, one process or a cluster, before it writes anything: no database, no first admin, no pid file", async () => {
    const other = createNetServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => other.once("listening", resolve));
    const port = String((other.address() as AddressInfo).port);
    const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-port-"));
    try {
      for (const processes of ["1", "2"]) {
        const databasePath = path.join(dir, `taken-${processes}.db`);
        const refused = await startOwnServer({ WEB_CONCURRENCY: processes, PORT: port, DATABASE_PATH: databasePath }).then(
          () => new Error("started"),
          (error: Error) => error,
        );
        expect(refused.message).toMatch(new RegExp(`exit 1\\):\\n[^]*\\{"level":60,[^\\n]*"msg":"Port ${port} ist schon belegt\\. Läuft Lagerfeuer schon`));
        // A start that cannot serve must not create the first admin (and show a one-time password nobody can use).
        expect(refused.message).not.toMatch(/Erster Admin|Passwort/);
        expect(existsSync(databasePath)).toBe(false);
        expect(existsSync(`${databasePath}.pid`)).toBe(false);
      }
    } finally {
      other.close();
    }
  });
});
