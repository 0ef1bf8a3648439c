// Helpers of an event (spec part 2 §2.6, §2.7, §4; part 1 §4): the list in the spec's order, the
// decisions of the lead persons and admins (each in one transaction with its audit entry and a
// mail to the helper), and the detail of one helper.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { eventGroups, eventHelpers, events, groupMembers, users, type HelperStatus } from "../../db/schema";
import { checkWarnings, eventLastDay, type CheckWarning, type HelperCheckRecord } from "~/lib/helper-checks";
import { berlinToday } from "~/lib/dates";
import { recordAudit, type AuditAction } from "~/models/audit.server";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { GREETING, queueMail } from "~/services/mail.server";

export type HelperRow = HelperCheckRecord & {
  userId: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  status: HelperStatus;
  groupId: number | null;
  groupName: string | null;
};

/** One query: the event's helpers with their group, in no particular order. */
function helperRows(eventId: number, q: Queryable, userId?: number): HelperRow[] {
  return q
    .select({
      userId: eventHelpers.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      status: eventHelpers.status,
      groupId: groupMembers.groupId,
      groupName: eventGroups.name,
      policeCertificateCheckedOn: users.policeCertificateCheckedOn,
      policeCertificateCheckedBy: users.policeCertificateCheckedBy,
      juleicaNumber: users.juleicaNumber,
      juleicaExpiresOn: users.juleicaExpiresOn,
    })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, eventHelpers.eventId), eq(groupMembers.helperUserId, eventHelpers.userId)))
    .leftJoin(eventGroups, eq(eventGroups.id, groupMembers.groupId))
    .where(userId === undefined ? eq(eventHelpers.eventId, eventId) : and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, userId)))
    .orderBy(asc(eventHelpers.userId))
    .all();
}

const collator = new Intl.Collator("de", { sensitivity: "base" });

/** Part 1 §4: accepted first, then by group name (grouped before ungrouped), surname, first name. */
export function compareHelpers(a: Pick<HelperRow, "status" | "groupName" | "lastName" | "firstName">, b: typeof a) {
  const accepted = Number(b.status === "accepted") - Number(a.status === "accepted");
  if (accepted) return accepted;
  if (a.groupName !== b.groupName) {
    if (a.groupName === null) return 1;
    if (b.groupName === null) return -1;
    const byGroup = collator.compare(a.groupName, b.groupName);
    if (byGroup) return byGroup;
  }
  return collator.compare(a.lastName, b.lastName) || collator.compare(a.firstName, b.firstName);
}

export type HelperListEntry = HelperRow & { warnings: CheckWarning[] };

/** The helper list: pending and accepted in the spec's order, declined apart (two queries in all). */
export function listHelpers(eventId: number, now = new Date(), q: Queryable = db) {
  const event = q.select({ dateFrom: events.dateFrom, dateTo: events.dateTo }).from(events).where(eq(events.id, eventId)).get();
  if (!event) return null;
  const lastDay = eventLastDay(event);
  const today = berlinToday(now);
  const rows = helperRows(eventId, q).sort(compareHelpers);
  const withWarnings = (row: HelperRow): HelperListEntry => ({
    ...row,
    warnings: row.status === "accepted" ? checkWarnings(row, lastDay, today) : [],
  });
  return {
    active: rows.filter((r) => r.status !== "declined").map(withWarnings),
    declined: rows.filter((r) => r.status === "declined").map(withWarnings),
  };
}

/** One helper of the event with their group and the checks' warnings; null when not a helper there. */
export function getHelperDetail(eventId: number, userId: number, now = new Date(), q: Queryable = db) {
  if (!Number.isSafeInteger(userId) || userId <= 0) return null;
  const event = q.select({ dateFrom: events.dateFrom, dateTo: events.dateTo }).from(events).where(eq(events.id, eventId)).get();
  const row = helperRows(eventId, q, userId)[0];
  if (!event || !row) return null;
  return { ...row, warnings: checkWarnings(row, eventLastDay(event), berlinToday(now)) };
}

// ---------------------------------------------------------------------------------------------
// Decisions

export const HELPER_DECISIONS = {
  accept: { from: "pending", to: "accepted", audit: "helper.accepted", label: "Annehmen" },
  decline: { from: "pending", to: "declined", audit: "helper.declined", label: "Ablehnen" },
  cancel: { from: "accepted", to: "pending", audit: "helper.reset", label: "Anmeldung stornieren" },
  "revoke-decline": { from: "declined", to: "pending", audit: "helper.reset", label: "Ablehnung stornieren" },
} as const satisfies Record<string, { from: HelperStatus; to: HelperStatus; audit: AuditAction; label: string }>;
export type HelperDecision = keyof typeof HELPER_DECISIONS;

export function isHelperDecision(value: unknown): value is HelperDecision {
  return typeof value === "string" && Object.hasOwn(HELPER_DECISIONS, value);
}

export type DecisionOutcome =
  | { ok: true; title: string; message: string }
  | { ok: false; status: 404 | 409; title: string; message: string };

const FAILED_TITLE = "Da hat etwas nicht geklappt";

/** The mail to the helper about a decision of the helper list. */
function decisionMail(decision: HelperDecision, person: { firstName: string }, event: { id: number; title: string }) {
  const link = `${settings().appUrl}/freizeit/${event.id}`;
  const hello = `Hallo ${person.firstName},\n\n`;
  const bye = `\n\nZur Veranstaltung: ${link}\n\n${GREETING.du}`;
  switch (decision) {
    case "accept":
      return {
        subject: `Du bist Helfer*in bei „${event.title}“`,
        text: `${hello}deine Bewerbung als Helfer*in für „${event.title}“ wurde angenommen. Ab jetzt siehst du die Listen der Veranstaltung.${bye}`,
      };
    case "decline":
      return {
        subject: `Deine Bewerbung als Helfer*in für „${event.title}“ wurde nicht angenommen`,
        text: `${hello}deine Bewerbung als Helfer*in für „${event.title}“ wurde leider nicht angenommen.${bye}`,
      };
    case "cancel":
      return {
        subject: `Deine Anmeldung als Helfer*in für „${event.title}“ wurde storniert`,
        text: `${hello}deine Anmeldung als Helfer*in für „${event.title}“ wurde storniert. Deine Bewerbung ist wieder offen; die Leitung entscheidet neu.${bye}`,
      };
    case "revoke-decline":
      return {
        subject: `Deine Bewerbung als Helfer*in für „${event.title}“ ist wieder offen`,
        text: `${hello}die Ablehnung deiner Bewerbung als Helfer*in für „${event.title}“ wurde zurückgenommen. Deine Bewerbung ist wieder offen; die Leitung entscheidet neu.${bye}`,
      };
  }
}

const DONE: Record<HelperDecision, (name: string) => string> = {
  accept: (name) => `${name} ist jetzt Helfer*in.`,
  decline: (name) => `Die Bewerbung von ${name} wurde abgelehnt.`,
  cancel: (name) => `Die Anmeldung von ${name} wurde storniert; die Bewerbung ist wieder offen.`,
  "revoke-decline": (name) => `Die Ablehnung von ${name} wurde storniert; die Bewerbung ist wieder offen.`,
};

/**
 * Moves a helper entry along the spec's transitions, in one transaction with the audit entry and
 * the mail to the helper. A helper who stops being accepted leaves their group (a group holds
 * accepted helpers only). The caller has asked the permissions module ('decideHelpers').
 */
export function decideHelper(eventId: number, helperUserId: number, decision: HelperDecision, actor: { id: number }): DecisionOutcome {
  const rule = HELPER_DECISIONS[decision];
  return writeTransaction((tx) => {
    const row = tx
      .select({ status: eventHelpers.status, firstName: users.firstName, lastName: users.lastName, email: users.email, title: events.title })
      .from(eventHelpers)
      .innerJoin(users, eq(users.id, eventHelpers.userId))
      .innerJoin(events, eq(events.id, eventHelpers.eventId))
      .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, helperUserId)))
      .get();
    if (!row) return { ok: false, status: 404, title: FAILED_TITLE, message: "Diese Bewerbung gibt es nicht mehr." };
    // Asked again (a double click): what was asked for holds, and nothing changes a second time.
    // Only for accepting and declining: 'pending', where the two undo steps lead, is also where
    // every application starts, so it does not tell a repeat.
    if (row.status === rule.to && rule.to !== "pending") return { ok: true, title: "Erfolgreich", message: DONE[decision](`${row.firstName} ${row.lastName}`) };
    if (row.status !== rule.from) {
      return { ok: false, status: 409, title: FAILED_TITLE, message: "Die Bewerbung wurde inzwischen geändert. Bitte sieh dir die Liste noch einmal an." };
    }
    const changed = tx
      .update(eventHelpers)
      .set({ status: rule.to, updatedAt: new Date() })
      .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, helperUserId), eq(eventHelpers.status, rule.from)))
      .run();
    if (changed.changes !== 1) return { ok: false, status: 409, title: FAILED_TITLE, message: "Die Bewerbung wurde inzwischen geändert." };
    if (rule.to !== "accepted") {
      tx.delete(groupMembers).where(and(eq(groupMembers.eventId, eventId), eq(groupMembers.helperUserId, helperUserId))).run();
    }
    recordAudit(tx, {
      actorId: actor.id,
      action: rule.audit,
      entityType: "helper",
      entityId: helperUserId,
      details: { eventId, event: row.title, name: `${row.firstName} ${row.lastName}`, from: rule.from, to: rule.to },
    });
    queueMail(tx, { to: row.email, ...decisionMail(decision, row, { id: eventId, title: row.title }) });
    return { ok: true, title: "Erfolgreich", message: DONE[decision](`${row.firstName} ${row.lastName}`) };
  });
}

/**
 * The mails of the event form's helper choice: in 'Sie', as the create and edit screen that causes
 * them (DECISIONS.md 'Form of address'). Only someone who applied reads that an application was
 * accepted; an admin ticked without one reads that they were entered. Only admins are chosen
 * there, and they see every list anyway: the mails say nothing of the lists.
 */
function eventFormHelperMail(change: "applied" | "entered" | "removed", person: { firstName: string }, event: { id: number; title: string }) {
  const hello = `Hallo ${person.firstName},\n\n`;
  const bye = `\n\nZur Veranstaltung: ${settings().appUrl}/freizeit/${event.id}\n\n${GREETING.sie}`;
  const title = `„${event.title}“`;
  if (change === "removed") {
    return {
      subject: `Sie sind nicht mehr als Helfer*in eingetragen: ${title}`,
      text: `${hello}Sie sind bei ${title} nicht mehr als Helfer*in eingetragen.${bye}`,
    };
  }
  const what = change === "applied" ? `Ihre Bewerbung als Helfer*in für ${title} wurde angenommen.` : `Sie wurden bei ${title} als Helfer*in eingetragen.`;
  return { subject: `Sie sind Helfer*in bei ${title}`, text: `${hello}${what}${bye}` };
}

/**
 * The admins ticked as helpers on the event form (spec part 1 §5), inside the form's transaction:
 * each one newly accepted, and each accepted one no longer ticked, is a helper decision like the
 * list's (DECISIONS: written to the protocol, the person told by mail). Helpers who applied and
 * are not admins are left as they are. `chosenAdminIds` holds active admins only.
 */
export function setEventFormHelpers(tx: Queryable, eventId: number, chosenAdminIds: number[], actor: { id: number }) {
  const event = tx.select({ title: events.title }).from(events).where(eq(events.id, eventId)).get();
  if (!event) return;
  const current = new Map(
    tx
      .select({ userId: eventHelpers.userId, status: eventHelpers.status })
      .from(eventHelpers)
      .innerJoin(users, eq(users.id, eventHelpers.userId))
      .where(and(eq(eventHelpers.eventId, eventId), eq(users.role, "admin")))
      .all()
      .map((h) => [h.userId, h.status]),
  );
  const added = chosenAdminIds.filter((id) => current.get(id) !== "accepted");
  const dropped = [...current].filter(([id, status]) => status === "accepted" && !chosenAdminIds.includes(id)).map(([id]) => id);
  if (!added.length && !dropped.length) return;
  const people = new Map(
    tx
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(inArray(users.id, [...added, ...dropped]))
      .all()
      .map((u) => [u.id, u]),
  );
  const tell = (userId: number, action: AuditAction, from: string, to: string, mail: { subject: string; text: string }) => {
    const { firstName, lastName } = people.get(userId)!;
    const details = { eventId, event: event.title, name: `${firstName} ${lastName}`, from, to };
    recordAudit(tx, { actorId: actor.id, action, entityType: "helper", entityId: userId, details });
    queueMail(tx, { to: people.get(userId)!.email, ...mail });
  };
  for (const userId of added) {
    tx.insert(eventHelpers)
      .values({ eventId, userId, status: "accepted" })
      .onConflictDoUpdate({ target: [eventHelpers.eventId, eventHelpers.userId], set: { status: "accepted", updatedAt: new Date() } })
      .run();
    const change = current.get(userId) === "pending" ? "applied" : "entered";
    tell(userId, "helper.accepted", current.get(userId) ?? "none", "accepted", eventFormHelperMail(change, people.get(userId)!, { id: eventId, title: event.title }));
  }
  if (dropped.length) {
    tx.delete(groupMembers).where(and(eq(groupMembers.eventId, eventId), inArray(groupMembers.helperUserId, dropped))).run();
    tx.delete(eventHelpers).where(and(eq(eventHelpers.eventId, eventId), inArray(eventHelpers.userId, dropped))).run();
  }
  for (const userId of dropped) {
    tell(userId, "helper.reset", "accepted", "none", eventFormHelperMail("removed", people.get(userId)!, { id: eventId, title: event.title }));
  }
}

/** Counts for tests and the admin badge: helpers of the event by status (one query). */
export function helperCounts(eventId: number, q: Queryable = db) {
  const rows = q
    .select({ status: eventHelpers.status, n: sql<number>`count(*)` })
    .from(eventHelpers)
    .where(eq(eventHelpers.eventId, eventId))
    .groupBy(eventHelpers.status)
    .all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Partial<Record<HelperStatus, number>>;
}
