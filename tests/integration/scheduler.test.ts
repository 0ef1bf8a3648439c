// The scheduler runs its jobs at start and notes each run in the database, failures included.
import { afterEach, describe, expect, it } from "vitest";
import { jobRuns } from "../../db/schema";
import { db } from "~/services/db.server";
import { registerJob, startScheduler, stopScheduler } from "~/services/scheduler.server";
import { allowConsoleErrors, loggedErrors, resetDatabase } from "../support/fixtures";

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
