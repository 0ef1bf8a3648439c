// The scheduler runs its jobs at start and notes each run in the database, failures included.
import { afterEach, describe, expect, it } from "vitest";
import { jobRuns } from "../../db/schema";
import { db } from "~/services/db.server";
import { registerJob, startScheduler, stopScheduler } from "~/services/scheduler.server";
import { allowConsoleErrors, createUser, loggedErrors, resetDatabase } from "../support/fixtures";
import { scheduledJobs } from "~/services/boot.server";
import { PAYMENT_MAIL_DELAY_MS } from "~/models/payment-mails.server";
import { decide } from "~/models/registration-decision.server";
import { RETENTION_JOB } from "~/models/retention.server";
import { createEvent } from "../support/events";
import { createRegistration } from "../support/registrations";
import { outbox } from "../support/remix";

afterEach(() => stopScheduler());

describe("the scheduler", () => {
  it("runs every job at start and notes when, with a failing job marked", () => {
    resetDatabase();
    allowConsoleErrors();
    const seen: Date[] = [];
    registerJob({ name: "test-gut", everyMs: 60_000, run: (now) => seen.push(now) });
    registerJob({
      name: "test-kaputt",
      everyMs: 60_000,
      run: () => {
        throw new Error("Platte voll");
      },
    });
    startScheduler();
    expect(seen).toHaveLength(1);
    const runs = Object.fromEntries(db.select().from(jobRuns).all().map((r) => [r.name, r]));
    expect(runs["test-gut"]).toMatchObject({ lastError: null });
    expect(runs["test-kaputt"]).toMatchObject({ lastError: "Platte voll" });
    expect(runs["test-gut"].lastRunAt.getTime()).toBe(seen[0].getTime());
    // One JSON line on stderr, as every error of the server: which job, and why.
    expect(loggedErrors()).toEqual([
      expect.objectContaining({ level: 50, msg: "Aufgabe „test-kaputt“ fehlgeschlagen", err: expect.objectContaining({ message: "Platte voll" }) }),
    ]);
  });
});

// Operations probe: every start of the jobs process ran the daily minimisation again, a protocol
// entry each time. When a job is due next is read from its last run in the database.
describe("a restart", () => {
  it("runs at start only the jobs whose turn has come by their last run; the others wait for it", async () => {
    resetDatabase();
    allowConsoleErrors(); // the failing job of the test before is still registered
    const now = Date.now();
    db.insert(jobRuns).values([
      { name: "test-taeglich", lastRunAt: new Date(now - 3600_000), lastError: null },
      { name: "test-ueberfaellig", lastRunAt: new Date(now - 25 * 3600_000), lastError: null },
      { name: "test-minute", lastRunAt: new Date(now - 59_900), lastError: null },
      // Failed an hour ago (a full disk, say): the restart that follows a fix runs it again.
      { name: "test-gescheitert", lastRunAt: new Date(now - 3600_000), lastError: "Platte voll" },
    ]).run();
    const ran: string[] = [];
    for (const [name, everyMs] of [["test-taeglich", 24 * 3600_000], ["test-ueberfaellig", 24 * 3600_000], ["test-minute", 60_000], ["test-neu", 24 * 3600_000], ["test-gescheitert", 24 * 3600_000]] as const) {
      registerJob({ name, everyMs, run: () => ran.push(name) });
    }
    startScheduler();
    expect(ran.sort()).toEqual(["test-gescheitert", "test-neu", "test-ueberfaellig"]);
    // The minute job's turn comes a moment later, not a whole minute after the start.
    await expect.poll(() => ran.includes("test-minute"), { timeout: 2000 }).toBe(true);
    expect(ran.filter((name) => name === "test-taeglich")).toEqual([]);
  });
});

describe("the app's jobs", () => {
  // Review: every test called sendPaymentMails itself; none failed with the job left out.
  it("include the payment mails every minute, which write a confirmed payment's mail once its ten minutes are over", async () => {
    resetDatabase();
    const lead = await createUser();
    const parent = await createUser({ firstName: "Petra" });
    const eventId = createEvent({ ownerIds: [lead.id], title: "Zeltlager" }).id;
    const r = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Anna" });
    decide(eventId, r.id, "confirm-payment", { id: lead.id, email: lead.email, firstName: lead.firstName, lastName: lead.lastName, role: "user" });
    const jobs = scheduledJobs();
    expect(jobs.map((j) => j.name).sort()).toEqual(["aufräumen", "helfer-nachweise", "platzangebote", "zahlungsmails", RETENTION_JOB].sort());
    const job = jobs.find((j) => j.name === "zahlungsmails")!;
    expect(job.everyMs).toBe(60_000);
    job.run(new Date(Date.now() + 9 * 60_000));
    expect(outbox()).toEqual([]);
    job.run(new Date(Date.now() + PAYMENT_MAIL_DELAY_MS));
    expect(outbox().map((m) => m.subject)).toEqual(["Zahlung eingegangen: Anna Muster – Zeltlager"]);
  });
});
