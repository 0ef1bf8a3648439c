// The confirmation page of one enrolment, and the ways back to it (event page, account).
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { enrolments, events, participants, registrationHistory, registrations } from "../../db/schema";
import { mandateReference } from "~/lib/creditor-id";
import { totalCents } from "~/lib/money";
import { paysNow } from "~/lib/registration-machine";
import { db, preparedQuery } from "~/services/db.server";
import type { SessionUser } from "./user.server";
import { registrationStateColumns } from "./registration-change.server";

// Built once per connection: every enrolment is followed by this page (the burst).
const enrolmentQuery = (own: boolean) =>
  preparedQuery((database) =>
    database
      .select({
        id: enrolments.id,
        reference: enrolments.reference,
        paymentMethod: enrolments.paymentMethod,
        createdAt: enrolments.createdAt,
        eventId: events.id,
        title: events.title,
        dateFrom: events.dateFrom,
        priceCents: events.priceCents,
        siblingDiscountCents: events.siblingDiscountCents,
        offerHours: events.offerHours,
        startsAt: events.startsAt,
      })
      .from(enrolments)
      .innerJoin(events, eq(events.id, enrolments.eventId))
      .where(and(eq(enrolments.id, sql.placeholder("enrolmentId")), own ? eq(enrolments.userId, sql.placeholder("userId")) : undefined))
      .prepare(),
  );
const ownEnrolment = enrolmentQuery(true);
const anyEnrolment = enrolmentQuery(false);
const childrenOfEnrolment = preparedQuery((database) =>
  database
    .select({ ...registrationStateColumns, amountCents: registrations.amountCents, sepaMandateId: registrations.sepaMandateId })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(eq(registrations.enrolmentId, sql.placeholder("enrolmentId")))
    .orderBy(asc(registrations.id))
    .prepare(),
);

/**
 * The enrolment's children that got their place after it, each asked for on its own by its mail:
 * moved up by the leaders, an offer taken, a rejection revoked.
 */
const placedLater = preparedQuery((database) =>
  database
    .selectDistinct({ id: registrationHistory.registrationId })
    .from(registrationHistory)
    .innerJoin(registrations, eq(registrations.id, registrationHistory.registrationId))
    .where(and(eq(registrations.enrolmentId, sql.placeholder("enrolmentId")), inArray(registrationHistory.action, ["moved_from_waiting_list", "offer_accepted", "rejection_revoked"])))
    .prepare(),
);

/** One transfer of what is open: its children's names and its amount. */
export type TransferPart = { names: string[]; cents: number; later: boolean };

/**
 * What is open, in the transfers the mails asked for (DECISIONS.md, one enrolment, one payment):
 * the children placed with the enrolment in one (its confirmation mail's total), each child that
 * got its place later on its own (its mail asked for its amount alone). Read only when more than
 * one child is open, which an enrolment's burst never meets.
 */
function transferParts(enrolmentId: number, open: { id: number; firstName: string; lastName: string; amountCents: number | null }[]): TransferPart[] {
  const name = (c: (typeof open)[number]) => `${c.firstName} ${c.lastName}`;
  const later = open.length > 1 ? new Set(placedLater().all({ enrolmentId }).map((r) => r.id)) : new Set<number>();
  const together = open.filter((c) => !later.has(c.id));
  return [
    ...(together.length > 0 ? [{ names: together.map(name), cents: totalCents(together.map((c) => c.amountCents)), later: false }] : []),
    ...open.filter((c) => later.has(c.id)).map((c) => ({ names: [name(c)], cents: c.amountCents ?? 0, later: true })),
  ].filter((part) => part.cents > 0);
}

function mandateOf(eventId: number, children: { sepaMandateId: number | null }[]) {
  const id = children.find((c) => c.sepaMandateId !== null)?.sepaMandateId;
  return id ? mandateReference(eventId, id) : null;
}

/**
 * One enrolment with its children and the total: for the account that enrolled, and for admins
 * (they open it from a parent's account page); null for anyone else (404).
 */
export function getEnrolmentConfirmation(enrolmentId: number, user: SessionUser) {
  const found = (user.role === "admin" ? anyEnrolment() : ownEnrolment()).get({ enrolmentId, userId: user.id });
  if (!found) return null;
  const { startsAt, ...enrolment } = found;
  // Once the event has begun, a child still waiting gets no place (no offers any more).
  const eventStarted = startsAt.getTime() <= Date.now();
  const children = childrenOfEnrolment()
    .all({ enrolmentId })
    .map((child) => ({ ...child, eventStarted }));
  // Only children that hold a place and are not turned down count (waiting ones pay later). A
  // child that got its place after another was paid for is asked for on its own: the page asks
  // only for what is open, never again for a payment the leaders have booked.
  const due = children.filter(paysNow);
  const total = totalCents(due.map((c) => c.amountCents));
  const paidCents = totalCents(due.filter((c) => c.paid).map((c) => c.amountCents));
  const open = due.filter((c) => !c.paid && (c.amountCents ?? 0) > 0);
  return {
    ...enrolment,
    children,
    totalCents: total,
    paidCents,
    openCents: total - paidCents,
    paid: due.length > 0 && due.every((c) => c.paid),
    transferParts: enrolment.paymentMethod === "transfer" ? transferParts(enrolmentId, open) : [],
    // The enrolment's children share its one mandate.
    mandateReference: mandateOf(enrolment.eventId, children),
  };
}

export type EnrolmentConfirmation = NonNullable<ReturnType<typeof getEnrolmentConfirmation>>;

/** The account's enrolments for one event, newest first: links from the event page. */
export function enrolmentLinks(eventId: number, userId: number) {
  return db
    .select({ id: enrolments.id, createdAt: enrolments.createdAt })
    .from(enrolments)
    .where(and(eq(enrolments.eventId, eventId), eq(enrolments.userId, userId)))
    .orderBy(desc(enrolments.id))
    .all();
}
