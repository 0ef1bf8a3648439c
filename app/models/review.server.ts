// The leaders' read side of an event's registrations (issue 10, items 2, 5, 6): the participant
// list, a registration's detail and a SEPA mandate's page. Each page reads with a constant number
// of queries, whatever the number of registrations (joins and SQL aggregation, never a query per
// row). Writing is the decision model's job.
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { enrolments, eventGroups, germanNameOrder, groupMembers, participants, registrations, sepaMandates, users } from "../../db/schema";
import { mandateReference } from "~/lib/creditor-id";
import { matchesFilter, pageOf, searchMatcher, sectionOf, type ListQuery } from "~/lib/review-filter";
import { db } from "~/services/db.server";
import { holdsPlace, isAllowed, placesWithOneMore, stateOf, type RegistrationFacts } from "~/lib/registration-machine";
import { hasAmountDue, placesTaken, registrationStateColumns, waitingInLine } from "./registration-change.server";

const byName = [germanNameOrder(participants.lastName), germanNameOrder(participants.firstName), asc(registrations.id)];

/** Holds one of the event's places and waits for nothing but the leaders (not on the waiting list). */
const placed = sql`${registrations.applicationStatus} in ('open', 'accepted') and ${registrations.waitingListPosition} is null`;

export type ListCounts = {
  capacity: number | null;
  taken: number;
  free: number | null;
  openDecisions: number;
  unpaid: number;
  waiting: number;
  total: number;
};

/** The numbers at a glance, in one aggregate query. */
export function listCounts(eventId: number, capacity: number | null): ListCounts {
  const r = registrations;
  const row = db
    .select({
      placed: sql<number>`coalesce(sum(case when ${placed} then 1 else 0 end), 0)`,
      offers: sql<number>`coalesce(sum(case when ${r.applicationStatus} = 'open' and ${r.waitingListPosition} is not null and ${r.offerExpiresAt} is not null then 1 else 0 end), 0)`,
      openDecisions: sql<number>`coalesce(sum(case when ${r.applicationStatus} = 'open' and ${r.waitingListPosition} is null then 1 else 0 end), 0)`,
      unpaid: sql<number>`coalesce(sum(case when ${placed} and ${r.paid} = 0 and ${hasAmountDue} then 1 else 0 end), 0)`,
      waiting: sql<number>`coalesce(sum(case when ${r.applicationStatus} = 'open' and ${r.waitingListPosition} is not null then 1 else 0 end), 0)`,
      total: sql<number>`count(*)`,
    })
    .from(r)
    .where(eq(r.eventId, eventId))
    .get()!;
  const taken = Number(row.placed) + Number(row.offers);
  return {
    capacity,
    taken,
    free: capacity === null ? null : Math.max(0, capacity - taken),
    openDecisions: Number(row.openDecisions),
    unpaid: Number(row.unpaid),
    waiting: Number(row.waiting),
    total: Number(row.total),
  };
}

export type ListRow = {
  id: number;
  firstName: string;
  lastName: string;
  applicationStatus: (typeof registrations.$inferSelect)["applicationStatus"];
  paid: boolean;
  waitingListPosition: number | null;
  /** Order on the waiting list (null off it). */
  lineOrder: number | null;
  /** Milliseconds; set while a place is offered. */
  offerExpiresAt: number | null;
  paymentMethod: "transfer" | "sepa";
  /** What its place costs (0: free, no payment state); null off a place. */
  amountCents: number | null;
  groupId: number | null;
  groupName: string | null;
  reference: string | null;
};

/** A row as the search reads it: with the account holder's name (the payer on a statement),
 * which the page does not need. */
type SearchedRow = ListRow & { payer: string };

function listRows(eventId: number): SearchedRow[] {
  const rows = db
    .select({
      ...registrationStateColumns,
      // The stored order here: counting each row's place in SQL (waitingPlace) grows with the square
      // of the waiting list, 3 ms for 466 waiting; the places are counted below in one pass.
      waitingListPosition: registrations.waitingListPosition,
      paymentMethod: registrations.paymentMethod,
      groupId: eventGroups.id,
      groupName: eventGroups.name,
      // The transfer's reference, which the search finds (a bank statement's line).
      reference: enrolments.reference,
      payerFirstName: users.firstName,
      payerLastName: users.lastName,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .innerJoin(users, eq(users.id, registrations.userId))
    .leftJoin(enrolments, eq(enrolments.id, registrations.enrolmentId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, registrations.eventId), eq(groupMembers.registrationId, registrations.id)))
    .leftJoin(eventGroups, eq(eventGroups.id, groupMembers.groupId))
    .where(eq(registrations.eventId, eventId))
    .orderBy(...byName)
    .all();
  // As waitingPlace: an open offer holds a place and is no longer in line for those behind it.
  // `lineOrder`: the stored order, which the list keeps (offers share a count with who follows).
  const place = new Map<number, { count: number; order: number }>();
  let inLine = 0;
  for (const [order, row] of rows.filter((r) => r.waitingListPosition !== null).sort((a, b) => a.waitingListPosition! - b.waitingListPosition!).entries()) {
    place.set(row.id, { count: row.offerExpiresAt ? inLine + 1 : ++inLine, order });
  }
  return rows.map(({ payerFirstName, payerLastName, ...row }) => ({
    ...row,
    payer: `${payerFirstName} ${payerLastName}`,
    waitingListPosition: place.get(row.id)?.count ?? null,
    lineOrder: place.get(row.id)?.order ?? null,
    offerExpiresAt: row.offerExpiresAt ? row.offerExpiresAt.getTime() : null,
  }));
}

export type OpenSepa = { id: number; firstName: string; lastName: string; children: number; amountCents: number };

/** Mandates with at least one place-holding registration whose payment is not yet confirmed. */
export function openSepaMandates(eventId: number): OpenSepa[] {
  return db
    .select({
      id: sepaMandates.id,
      firstName: sepaMandates.firstName,
      lastName: sepaMandates.lastName,
      children: sql<number>`count(${registrations.id})`.mapWith(Number),
      amountCents: sql<number>`coalesce(sum(${registrations.amountCents}), 0)`.mapWith(Number),
    })
    .from(sepaMandates)
    .innerJoin(registrations, eq(registrations.sepaMandateId, sepaMandates.id))
    .where(and(eq(sepaMandates.eventId, eventId), eq(registrations.eventId, eventId), placed, eq(registrations.paid, false), hasAmountDue))
    .groupBy(sepaMandates.id)
    .orderBy(germanNameOrder(sepaMandates.lastName), germanNameOrder(sepaMandates.firstName), asc(sepaMandates.id))
    .all();
}

export type ParticipantList = {
  counts: ListCounts;
  table: ListRow[];
  waiting: ListRow[];
  rejected: ListRow[];
  openSepa: OpenSepa[];
  /** The page shown of the filtered rows, in the order table, waiting list, rejected. */
  paging: { page: number; pageCount: number; matching: number };
};

/**
 * The participant list of an event, filtered, searched and cut into pages; the counts are always
 * the whole event's.
 */
export function getParticipantList(eventId: number, capacity: number | null, query: ListQuery, withSepa: boolean): ParticipantList {
  const matches = searchMatcher(query.search);
  const shown: ListRow[] = listRows(eventId)
    .filter((r) => matchesFilter(r, query.filter) && matches(r))
    .map(({ payer: _payer, ...row }) => row);
  // In line, offers in the order they were made.
  const waiting = shown.filter((r) => sectionOf(r) === "waiting").sort((a, b) => (a.lineOrder ?? 0) - (b.lineOrder ?? 0));
  const ordered = [...shown.filter((r) => sectionOf(r) === "table"), ...waiting, ...shown.filter((r) => sectionOf(r) === "rejected")];
  const { rows, page, pageCount } = pageOf(ordered, query.page);
  return {
    counts: listCounts(eventId, capacity),
    table: rows.filter((r) => sectionOf(r) === "table"),
    waiting: rows.filter((r) => sectionOf(r) === "waiting"),
    rejected: rows.filter((r) => sectionOf(r) === "rejected"),
    openSepa: withSepa && query.filter === "alle" && !query.search ? openSepaMandates(eventId) : [],
    paging: { page, pageCount, matching: ordered.length },
  };
}

// ---------------------------------------------------------------------------------------------
// One registration

/**
 * What the 'Nachrücken' step says before anything is sent: a waiting child moves up into a free
 * place (an offered one holds its place already). In a full camp the step offers one more place
 * for this child, to whoever may set the event's places, and says how many there are then (as
 * the action counts them).
 */
export function noPlaceFor(event: { id: number; capacity: number | null }, intent: string, facts: RegistrationFacts, may: { editEvent: boolean }) {
  if (intent !== "move-up" || stateOf(facts) !== "waiting" || event.capacity === null) return {};
  const taken = placesTaken(event.id);
  if (taken < event.capacity) return {};
  return { noPlace: { places: event.capacity, placesThen: placesWithOneMore(event.capacity, taken), addPlace: may.editEvent } };
}

/**
 * What a rejection or cancellation step says before anything is sent: the freed place is offered
 * to the first child in line at once, whose family is mailed (leaders' review: the step did not
 * say so). Nobody when the registration holds no place, the event has no limit or has begun.
 */
export function nextInLineFor(event: { id: number; capacity: number | null; startsAt: Date }, intent: string, facts: RegistrationFacts, now = new Date()) {
  if ((intent !== "reject" && intent !== "cancel") || !holdsPlace(stateOf(facts))) return {};
  if (event.capacity === null || event.startsAt.getTime() <= now.getTime()) return {};
  // The one the action will offer the place to (offerFreePlaces asks the same).
  const [next] = waitingInLine(db, event.id, 1);
  return next ? { nextInLine: `${next.childFirstName} ${next.childLastName}` } : {};
}

/** A registration of this event with what a decision step needs (its facts and name), or null. */
export function decisionSubject(eventId: number, registrationId: number) {
  const row = db
    .select({
      ...registrationStateColumns,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(and(eq(registrations.id, registrationId), eq(registrations.eventId, eventId)))
    .get();
  return row ?? null;
}

/** Of the ticked registrations, those of this event that accepting would take, by name (one query). */
export function acceptableAmong(eventId: number, registrationIds: number[]) {
  if (!registrationIds.length) return [];
  return db
    .select(registrationStateColumns)
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(and(eq(registrations.eventId, eventId), inArray(registrations.id, registrationIds)))
    .orderBy(...byName)
    .all()
    .filter((row) => isAllowed("accept", row))
    .map((row) => ({ id: row.id, name: `${row.firstName} ${row.lastName}` }));
}

// ---------------------------------------------------------------------------------------------
// A SEPA mandate

export function getSepaDetail(eventId: number, sepaMandateId: number) {
  if (!Number.isSafeInteger(sepaMandateId) || sepaMandateId <= 0) return null;
  const found = db
    .select({
      id: sepaMandates.id,
      firstName: sepaMandates.firstName,
      lastName: sepaMandates.lastName,
      street: sepaMandates.street,
      postalCode: sepaMandates.postalCode,
      city: sepaMandates.city,
      iban: sepaMandates.iban,
      createdAt: sepaMandates.createdAt,
    })
    .from(sepaMandates)
    .where(and(eq(sepaMandates.id, sepaMandateId), eq(sepaMandates.eventId, eventId)))
    .get();
  if (!found) return null;
  // What a debit needs besides the account: the mandate's reference and the day it was given.
  const { createdAt, ...held } = found;
  const mandate = { ...held, reference: mandateReference(eventId, found.id), givenOn: createdAt.toISOString() };
  // 'Angemeldete Teilnehmer*innen': the registrations on this mandate that hold a place (open or
  // accepted); waiting, rejected and cancelled ones are not collected.
  const children = db
    .select({
      ...registrationStateColumns,
      amountCents: registrations.amountCents,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(
      and(
        eq(registrations.sepaMandateId, sepaMandateId),
        eq(registrations.eventId, eventId),
        inArray(registrations.applicationStatus, ["open", "accepted"]),
        isNull(registrations.waitingListPosition),
      ),
    )
    .orderBy(...byName)
    .all();
  const amountCents = children.reduce((sum, c) => sum + (c.amountCents ?? 0), 0);
  const openCents = children.reduce((sum, c) => sum + (c.paid ? 0 : (c.amountCents ?? 0)), 0);
  return { mandate, children, amountCents, openCents };
}
