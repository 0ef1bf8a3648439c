// Helper checks (DECISIONS.md 'Helper checks', issue 11 item 6): what admins enter on the account
// (police certificate inspected on/by, Juleica number and expiry; the form also edits the
// account's own phone for the camp sheet, which is no part of the record and stays), and
// the one mail to the lead persons 30 days before an event listing what is missing.
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { eventHelpers, eventOwners, events, users } from "../../db/schema";
import { berlinToday, formatIsoDate, isIsoDate } from "~/lib/dates";
import { checkWarnings, eventLastDay } from "~/lib/helper-checks";
import { recordAudit } from "~/models/audit.server";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { GREETING, queueMail } from "~/services/mail.server";
import { isOwnPhone, OWN_PHONE_MESSAGE } from "~/lib/phone";

export type HelperChecks = {
  policeCertificateCheckedOn: string | null;
  policeCertificateCheckedBy: string | null;
  juleicaNumber: string | null;
  juleicaExpiresOn: string | null;
  phone: string | null;
};

export const CHECK_FIELDS = ["policeCertificateCheckedOn", "policeCertificateCheckedBy", "juleicaNumber", "juleicaExpiresOn", "phone"] as const;
export type CheckField = (typeof CHECK_FIELDS)[number];
export type CheckErrors = Partial<Record<CheckField, string>>;

export function getHelperChecks(userId: number, q: Queryable = db): HelperChecks | null {
  return (
    q
      .select({
        policeCertificateCheckedOn: users.policeCertificateCheckedOn,
        policeCertificateCheckedBy: users.policeCertificateCheckedBy,
        juleicaNumber: users.juleicaNumber,
        juleicaExpiresOn: users.juleicaExpiresOn,
        phone: users.phone,
      })
      .from(users)
      .where(eq(users.id, userId))
      .get() ?? null
  );
}

function text(form: FormData, name: string) {
  const value = form.get(name);
  return typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
}

/** Reads and checks the form of the account page; German messages per field ('du', as the account). */
export function parseHelperChecks(form: FormData, today: string): { ok: true; value: HelperChecks } | { ok: false; errors: CheckErrors } {
  const value: HelperChecks = {
    policeCertificateCheckedOn: text(form, "policeCertificateCheckedOn") || null,
    policeCertificateCheckedBy: text(form, "policeCertificateCheckedBy") || null,
    juleicaNumber: text(form, "juleicaNumber") || null,
    juleicaExpiresOn: text(form, "juleicaExpiresOn") || null,
    phone: text(form, "phone") || null,
  };
  const errors: CheckErrors = {};
  const on = value.policeCertificateCheckedOn;
  if (on && !isIsoDate(on)) errors.policeCertificateCheckedOn = "Bitte gib ein gültiges Datum an.";
  else if (on && on > today) errors.policeCertificateCheckedOn = "Das Datum der Einsicht darf nicht in der Zukunft liegen.";
  if (on && !value.policeCertificateCheckedBy) errors.policeCertificateCheckedBy = "Bitte gib an, wer das Führungszeugnis eingesehen hat.";
  if (!on && value.policeCertificateCheckedBy) errors.policeCertificateCheckedOn = "Bitte gib das Datum der Einsicht an.";
  if ((value.policeCertificateCheckedBy?.length ?? 0) > 100) errors.policeCertificateCheckedBy = "Höchstens 100 Zeichen.";
  const expires = value.juleicaExpiresOn;
  if (expires && !isIsoDate(expires)) errors.juleicaExpiresOn = "Bitte gib ein gültiges Datum an.";
  if (value.juleicaNumber && !expires) errors.juleicaExpiresOn = "Bitte gib an, bis wann die Juleica gilt.";
  if (expires && !value.juleicaNumber) errors.juleicaNumber = "Bitte gib die Juleica-Nummer an.";
  if (value.juleicaNumber && !/^[A-Za-z0-9 ./-]{1,30}$/.test(value.juleicaNumber)) {
    errors.juleicaNumber = "Die Juleica-Nummer darf nur Buchstaben, Ziffern, Leerzeichen, Punkte, Schrägstriche und Bindestriche enthalten (höchstens 30 Zeichen).";
  }
  if (value.phone && !isOwnPhone(value.phone)) errors.phone = OWN_PHONE_MESSAGE;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}

/** Saves the record with the day it was saved (none when every check is empty). */
export function saveHelperChecks(userId: number, value: HelperChecks, now: Date = new Date()) {
  const recorded = value.policeCertificateCheckedOn || value.policeCertificateCheckedBy || value.juleicaNumber || value.juleicaExpiresOn;
  return (
    db
      .update(users)
      .set({ ...value, helperChecksRecordedOn: recorded ? berlinToday(now) : null, updatedAt: now })
      .where(eq(users.id, userId))
      .run().changes === 1
  );
}

// ---------------------------------------------------------------------------------------------
// The lead persons' mail 30 days before the event

export const REMINDER_DAYS = 30;

function addDays(date: string, days: number) {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Sends, once per event, the lead persons a mail listing what is missing for the accepted
 * helpers, from 30 days before the start (an event created later gets it at the next run).
 * Idempotent: the time it went out is kept on the event; three queries whatever the number of
 * events. Returns the ids of the events handled.
 */
export function sendHelperCheckReminders(now: Date = new Date()) {
  const today = berlinToday(now);
  const due = db
    .select({ id: events.id, title: events.title, dateFrom: events.dateFrom, dateTo: events.dateTo })
    .from(events)
    .where(and(isNull(events.helperCheckReminderSentAt), lte(events.dateFrom, addDays(today, REMINDER_DAYS)), gt(events.startsAt, now)))
    .orderBy(asc(events.dateFrom))
    .all();
  if (due.length === 0) return [];
  const ids = due.map((e) => e.id);
  const helpers = db
    .select({
      eventId: eventHelpers.eventId,
      firstName: users.firstName,
      lastName: users.lastName,
      policeCertificateCheckedOn: users.policeCertificateCheckedOn,
      policeCertificateCheckedBy: users.policeCertificateCheckedBy,
      juleicaNumber: users.juleicaNumber,
      juleicaExpiresOn: users.juleicaExpiresOn,
    })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(inArray(eventHelpers.eventId, ids), eq(eventHelpers.status, "accepted")))
    .orderBy(asc(users.lastName), asc(users.firstName))
    .all();
  const leads = db
    .select({ eventId: eventOwners.eventId, email: users.email, firstName: users.firstName })
    .from(eventOwners)
    .innerJoin(users, eq(users.id, eventOwners.userId))
    .where(and(inArray(eventOwners.eventId, ids), eq(users.banned, false)))
    .all();
  const handled: number[] = [];
  for (const event of due) {
    const lastDay = eventLastDay(event);
    const missing = helpers
      .filter((h) => h.eventId === event.id)
      .map((h) => ({ name: `${h.firstName} ${h.lastName}`, warnings: checkWarnings(h, lastDay, today) }))
      .filter((h) => h.warnings.length > 0);
    writeTransaction((tx) => {
      const marked = tx
        .update(events)
        .set({ helperCheckReminderSentAt: now })
        .where(and(eq(events.id, event.id), isNull(events.helperCheckReminderSentAt)))
        .run();
      if (marked.changes !== 1 || missing.length === 0) return;
      for (const lead of leads.filter((l) => l.eventId === event.id)) {
        queueMail(tx, reminderMail(lead, event, missing, today));
      }
    });
    handled.push(event.id);
  }
  return handled;
}

function reminderMail(
  lead: { email: string; firstName: string },
  event: { id: number; title: string; dateFrom: string },
  missing: { name: string; warnings: { text: string }[] }[],
  today: string,
) {
  const days = Math.round((Date.parse(`${event.dateFrom}T12:00:00Z`) - Date.parse(`${today}T12:00:00Z`)) / 86_400_000);
  const when = days === REMINDER_DAYS ? `In 30 Tagen, am ${formatIsoDate(event.dateFrom)},` : `Am ${formatIsoDate(event.dateFrom)}`;
  const lines = missing.map((h) => `- ${h.name}: ${h.warnings.map((w) => w.text).join("; ")}`);
  return {
    to: lead.email,
    subject: `Nachweise der Helfer*innen für „${event.title}“`,
    text: [
      `Hallo ${lead.firstName},`,
      "",
      `${when} beginnt „${event.title}“. Bei diesen Helfer*innen fehlt noch ein Nachweis:`,
      "",
      ...lines,
      "",
      "Admins tragen die Einsicht ins erweiterte Führungszeugnis und die Juleica im Konto der Person ein.",
      `Zur Mitarbeiter*innen-Liste: ${settings().appUrl}/freizeit/helper/${event.id}`,
      "",
      GREETING.du,
    ].join("\n"),
  };
}

// ---------------------------------------------------------------------------------------------
// Keeping the records no longer than needed

export const KEEP_MONTHS = 3;

/** YYYY-MM-DD minus whole months (the day clamped to the shorter month's end). */
export function monthsBefore(date: string, months: number) {
  const [y, m, d] = date.split("-").map(Number);
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/**
 * Whose helper-check record is due (DECISIONS.md 'Helper checks'): three months after the
 * person's last event as an accepted helper, and never sooner than three months after the record
 * was saved (one entered after that event, or for someone not yet accepted). Of someone who is no
 * accepted helper (declined, withdrawn, the event deleted) the record goes three months after it
 * was saved.
 */
function helperChecksDue(now: Date) {
  const cutoff = monthsBefore(berlinToday(now), KEEP_MONTHS);
  const lastDay = sql`coalesce(${events.dateTo}, ${events.dateFrom})`;
  return and(
    or(
      sql`${users.policeCertificateCheckedOn} is not null`,
      sql`${users.policeCertificateCheckedBy} is not null`,
      sql`${users.juleicaNumber} is not null`,
      sql`${users.juleicaExpiresOn} is not null`,
    ),
    sql`coalesce(${users.helperChecksRecordedOn}, '') < ${cutoff}`,
    sql`not exists (select 1 from ${eventHelpers} join ${events} on ${events.id} = ${eventHelpers.eventId} where ${eventHelpers.userId} = ${users.id} and ${eventHelpers.status} = 'accepted' and ${lastDay} >= ${cutoff})`,
  );
}

/** How many accounts' records the next run clears (the admin panel's preview). */
export function countHelperChecksDue(now: Date, q: Queryable = db) {
  return q.select({ n: sql<number>`count(*)` }).from(users).where(helperChecksDue(now)).get()?.n ?? 0;
}

/**
 * Clears the records that are due, inside the caller's transaction. The phone stays: it is the
 * account's own number (/account), shown and changed there by its owner, not part of the record.
 * One statement; returns the number of accounts cleared.
 */
export function clearHelperChecks(tx: Queryable, now: Date) {
  return tx
    .update(users)
    .set({
      policeCertificateCheckedOn: null,
      policeCertificateCheckedBy: null,
      juleicaNumber: null,
      juleicaExpiresOn: null,
      helperChecksRecordedOn: null,
    })
    .where(helperChecksDue(now))
    .run().changes;
}

/** The hourly job: clears what is due and writes the count to the protocol. */
export function purgeOldHelperChecks(now: Date = new Date()) {
  return writeTransaction((tx) => {
    const cleared = clearHelperChecks(tx, now);
    if (cleared > 0) recordAudit(tx, { actorId: null, action: "retention.run", entityType: "system", details: { helperChecks: cleared } });
    return cleared;
  });
}
