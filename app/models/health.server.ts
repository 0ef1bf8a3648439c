// The health answer for a monitoring tool: the database answers, the outbox delivers, the
// scheduled jobs run, the disk has room. Counts and ages only, never personal data.
import { inArray, sql } from "drizzle-orm";
import { jobRuns, mailOutbox } from "../../db/schema";
import { checkDatabase, db } from "~/services/db.server";
import { diskReport } from "~/services/disk-space.server";
import { ATTACHMENT_MAX_BYTES } from "~/services/uploads.server";

/** The offers job runs every minute: silence for longer than this means the scheduler stopped. */
export const SCHEDULER_SILENCE_MS = 5 * 60_000;

export function healthReport(now = new Date()) {
  checkDatabase();
  const outbox = db
    .select({
      backlog: sql<number>`count(*) filter (where ${mailOutbox.status} in ('pending', 'sending'))`,
      failed: sql<number>`count(*) filter (where ${mailOutbox.status} = 'failed')`,
      // Undelivered since it was due: a mail meant for later (a payment's confirmation waits ten
      // minutes) from its start; one that failed and waits for its next try from when it was made.
      oldest: sql<number | null>`min(case when ${mailOutbox.status} in ('pending', 'sending') then (case when ${mailOutbox.attempts} = 0 then max(${mailOutbox.createdAt}, ${mailOutbox.nextAttemptAt}) else ${mailOutbox.createdAt} end) end)`,
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ["pending", "sending", "failed"]))
    .get()!;
  const jobs = db.select().from(jobRuns).all();
  const lastRun = Math.max(0, ...jobs.map((j) => j.lastRunAt.getTime()));
  return {
    status: "ok" as const,
    database: "ok" as const,
    outbox: {
      backlog: outbox.backlog,
      failed: outbox.failed,
      oldestUndeliveredSeconds: outbox.oldest === null ? null : Math.max(0, Math.round((now.getTime() - outbox.oldest) / 1000)),
    },
    disk: diskReport(ATTACHMENT_MAX_BYTES),
    scheduler: {
      ranRecently: lastRun > 0 && now.getTime() - lastRun <= SCHEDULER_SILENCE_MS,
      jobs: Object.fromEntries(
        jobs.map((j) => [j.name, { lastRunSecondsAgo: Math.round((now.getTime() - j.lastRunAt.getTime()) / 1000), failing: j.lastError !== null }]),
      ),
    },
  };
}
