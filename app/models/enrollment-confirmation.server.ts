// The confirmation page of one enrolment, and the ways back to it (event page, account).
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { enrolments, events, participants, registrations, sepaMandates } from "../../db/schema";
import { mandateReference } from "~/lib/creditor-id";
import { maskIban } from "~/lib/iban";
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
    .select({ ...registrationStateColumns, amountAskedAlone: registrations.amountAskedAlone, sepaMandateId: registrations.sepaMandateId, mandateIban: sepaMandates.iban })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .leftJoin(sepaMandates, eq(sepaMandates.id, registrations.sepaMandateId))
    .where(eq(registrations.enrolmentId, sql.placeholder("enrolmentId")))
    .orderBy(asc(registrations.id))
    .prepare(),
);

/** One payment of what is open: its children's names and its amount. */
export type OpenPart = { names: string[]; cents: number; alone: boolean };

/**
 * What is open, in the payments the mails asked for (DECISIONS.md, one enrolment, one payment):
 * the children asked for in the enrolment's total in one, each child whose own mail asked for its
 * amount alone (a place got later, a booked payment taken back) on its own. For a transfer these
 * are the transfers to make; for a SEPA mandate the debits announced.
 */
function openParts(open: { firstName: string; lastName: string; amountCents: number | null; amountAskedAlone: boolean }[]): OpenPart[] {
  const name = (c: (typeof open)[number]) => `${c.firstName} ${c.lastName}`;
  const together = open.filter((c) => !c.amountAskedAlone);
  return [
    ...(together.length > 0 ? [{ names: together.map(name), cents: totalCents(together.map((c) => c.amountCents)), alone: false }] : []),
    ...open.filter((c) => c.amountAskedAlone).map((c) => ({ names: [name(c)], cents: c.amountCents ?? 0, alone: true })),
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
  const rows = childrenOfEnrolment().all({ enrolmentId });
  // The whole IBAN stays here: the page shows it shortened.
  const children = rows.map(({ mandateIban: _iban, ...child }) => ({ ...child, eventStarted }));
  const mandateIban = rows.find((c) => c.mandateIban !== null)?.mandateIban;
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
    openParts: openParts(open),
    // The enrolment's children share its one mandate.
    mandateReference: mandateOf(enrolment.eventId, children),
    debitAccount: mandateIban ? maskIban(mandateIban) : null,
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
