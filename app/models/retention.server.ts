// Keeping children's data only as long as needed (DECISIONS.md 'Keeping children's data'):
// special needs, insurance data, permission answers and comments go RETENTION_HEALTH_DAYS after
// the event ended; the registration itself (for the subsidy list) after RETENTION_YEARS; SEPA
// mandates after RETENTION_SEPA_MONTHS; delivered mails (their texts name children, reasons) after
// RETENTION_HEALTH_DAYS; helpers' checks three months after their last event (helper-check.server).
// The parent's own records (children, guardians) stay.
// A daily job runs it; each run writes counts, never contents, to the protocol.
import { and, desc, eq, inArray, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { auditLog, comments, events, jobRuns, mailOutbox, registrationHistory, registrations, sepaMandates } from "../../db/schema";
import { berlinToday } from "~/lib/dates";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { recordAudit } from "./audit.server";
import { clearHelperChecks, countHelperChecksDue } from "./helper-check.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";

/** A calendar date moved by days, months or years (the day clamped to the month's end). */
export function shiftIsoDate(iso: string, by: { days?: number; months?: number; years?: number }) {
  const [y, m, d] = iso.split("-").map(Number);
  const months = y * 12 + (m - 1) + (by.months ?? 0) + (by.years ?? 0) * 12;
  const year = Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(Date.UTC(year, month, Math.min(d, lastDay)) + (by.days ?? 0) * 86_400_000);
  return date.toISOString().slice(0, 10);
}

const eventEnd = sql<string>`coalesce(${events.dateTo}, ${events.dateFrom})`;

/** Ids of events that ended on or before `lastDay`. */
function endedBy(lastDay: string) {
  return db.select({ id: events.id }).from(events).where(lte(eventEnd, lastDay));
}

function cutoffs(now: Date) {
  const today = berlinToday(now);
  const config = settings().retention;
  return {
    health: shiftIsoDate(today, { days: -config.healthDays }),
    registrations: shiftIsoDate(today, { years: -config.years }),
    sepa: shiftIsoDate(today, { months: -config.sepaMonths }),
  };
}

const hasHealthData: SQL = or(
  sql`${registrations.specialNeeds} <> ''`,
  sql`${registrations.nameOfInsured} <> ''`,
  sql`${registrations.birthdateOfInsured} IS NOT NULL`,
  sql`${registrations.allowedToWander} IS NOT NULL`,
  sql`${registrations.allowedToSwim} IS NOT NULL`,
  sql`${registrations.canSwim} IS NOT NULL`,
  sql`${registrations.allowedToCanoe} IS NOT NULL`,
  // A decision's reason may name an illness ('Diabetes, keine Betreuung möglich').
  sql`EXISTS (SELECT 1 FROM "registration_history" AS "h" WHERE "h"."registration_id" = "registrations"."id" AND "h"."reason" <> '')`,
)!;

function conditions(now: Date) {
  const at = cutoffs(now);
  const mailsBefore = new Date(now.getTime() - settings().retention.healthDays * 86_400_000);
  return {
    // Delivered or given up (never one still to go), and not the delivery of an event e-mail,
    // whose log shows it while the event mail is kept.
    mails: and(
      inArray(mailOutbox.status, ["sent", "failed"]),
      lt(mailOutbox.createdAt, mailsBefore),
      sql`NOT EXISTS (SELECT 1 FROM "event_mail_recipients" AS "r" WHERE "r"."outbox_id" = "mail_outbox"."id")`,
    ),
    health: and(inArray(registrations.eventId, endedBy(at.health)), hasHealthData),
    historyReasons: and(
      ne(registrationHistory.reason, ""),
      inArray(registrationHistory.registrationId, db.select({ id: registrations.id }).from(registrations).where(inArray(registrations.eventId, endedBy(at.health)))),
    ),
    protocolReasons: and(
      eq(auditLog.entityType, "registration"),
      sql`json_extract(${auditLog.details}, '$.reason') IS NOT NULL`,
      // Of an event that ended long enough ago, or of one deleted since (its registrations are gone).
      or(
        inArray(sql`json_extract(${auditLog.details}, '$.eventId')`, endedBy(at.health)),
        sql`json_extract(${auditLog.details}, '$.eventId') NOT IN (SELECT "id" FROM "events")`,
      ),
    ),
    comments: inArray(comments.eventId, endedBy(at.health)),
    registrations: inArray(registrations.eventId, endedBy(at.registrations)),
    mandates: inArray(sepaMandates.eventId, endedBy(at.sepa)),
  };
}

export type RetentionCounts = { healthData: number; comments: number; registrations: number; sepaMandates: number; helperChecks: number; mails: number };

/** The daily job's name, as the scheduler notes its runs. */
export const RETENTION_JOB = "datensparsamkeit";

/** When the daily job last ran and whether it failed (the scheduler notes each run), null before the first. */
export function retentionLastRun(database: Queryable = db) {
  const run = database.select({ at: jobRuns.lastRunAt, error: jobRuns.lastError }).from(jobRuns).where(eq(jobRuns.name, RETENTION_JOB)).get();
  return run ? { at: run.at, failed: run.error !== null } : null;
}

/** What the next run would remove (shown to admins on /gott). */
export function retentionPreview(now = new Date(), database: Queryable = db): RetentionCounts {
  const where = conditions(now);
  const n = (query: { get: () => { n: number } | undefined }) => query.get()?.n ?? 0;
  return {
    healthData: n(database.select({ n: sql<number>`count(*)` }).from(registrations).where(where.health)),
    comments: n(database.select({ n: sql<number>`count(*)` }).from(comments).where(where.comments)),
    registrations: n(database.select({ n: sql<number>`count(*)` }).from(registrations).where(where.registrations)),
    sepaMandates: n(database.select({ n: sql<number>`count(*)` }).from(sepaMandates).where(where.mandates)),
    helperChecks: countHelperChecksDue(now, database),
    mails: n(database.select({ n: sql<number>`count(*)` }).from(mailOutbox).where(where.mails)),
  };
}

/**
 * Removes what is due, in one transaction, and writes the counts to the protocol. An admin's form
 * sent again with the same key (a double tap) runs nothing and answers with the first run's counts.
 */
export function runRetention(now = new Date(), actorId: number | null = null, submissionKey: string | null = null): RetentionCounts {
  return writeTransaction((tx) => {
    if (actorId !== null && earlierSubmission(tx, submissionKey, actorId)) {
      const last = tx
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, "retention.run"), eq(auditLog.actorId, actorId)))
        .orderBy(desc(auditLog.id))
        .get();
      return { helperChecks: 0, ...(JSON.parse(last?.details ?? "null") ?? { healthData: 0, comments: 0, sepaMandates: 0, registrations: 0, mails: 0 }) };
    }
    if (actorId !== null) recordSubmission(tx, submissionKey, actorId, "/gott?tab=protokoll");
    const where = conditions(now);
    const counts: RetentionCounts = {
      healthData: tx
        .update(registrations)
        .set({
          specialNeeds: "",
          nameOfInsured: "",
          birthdateOfInsured: null,
          allowedToWander: null,
          allowedToSwim: null,
          canSwim: null,
          allowedToCanoe: null,
          updatedAt: now,
        })
        .where(where.health)
        .run().changes,
      comments: tx.delete(comments).where(where.comments).run().changes,
      sepaMandates: tx.delete(sepaMandates).where(where.mandates).run().changes,
      registrations: tx.delete(registrations).where(where.registrations).run().changes,
      // The helper checks (DECISIONS.md 'Helper checks') go with it; their hourly job does too.
      helperChecks: clearHelperChecks(tx, now),
      mails: tx.delete(mailOutbox).where(where.mails).run().changes,
    };
    // After the answers (their condition looks at the reasons): the history keeps each step with
    // its person and time, the protocol its entry, both without the reason.
    tx.update(registrationHistory).set({ reason: "" }).where(where.historyReasons).run();
    tx.update(auditLog).set({ details: sql`json_remove(${auditLog.details}, '$.reason')` }).where(where.protocolReasons).run();
    recordAudit(tx, { actorId, action: "retention.run", entityType: "system", details: { ...counts } });
    return counts;
  });
}
