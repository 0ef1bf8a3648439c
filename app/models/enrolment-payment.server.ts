// One enrolment's payment, as the leaders match it against a bank statement (DECISIONS.md, one
// enrolment, one payment): the transfer's reference names the enrolment; its children that hold a
// place make the total. Read in one query, whatever the number of children or enrolments.
import { and, asc, eq, inArray } from "drizzle-orm";
import { enrolments, participants, registrations, users } from "../../db/schema";
import { owes, paysNow } from "~/lib/registration-machine";
import { referencesIn } from "~/lib/transfer";
import { db } from "~/services/db.server";
import { registrationStateColumns } from "./registration-change.server";
import type { ListRow } from "./review.server";

export type EnrolmentPayment = {
  id: number;
  reference: string;
  paymentMethod: "transfer" | "sepa";
  /** The account that enrolled, as the payer on the statement is often named. */
  payer: string;
  children: Pick<ListRow, "id" | "firstName" | "lastName" | "applicationStatus" | "paid" | "waitingListPosition" | "offerExpiresAt" | "amountCents">[];
  /** What the children that hold a place cost, and what of it is not confirmed yet. */
  totalCents: number;
  openCents: number;
  /** The children whose payment is open: what the button confirms, and no other. */
  owingIds: number[];
  /** One of them has no amount stored (a registration from before amounts were kept). */
  amountUnknown: boolean;
};

/** The children of these enrolments of the event, with their enrolment and payer: one query. */
function paymentRows(eventId: number, enrolmentIds: number[]) {
  return db
    .select({
      ...registrationStateColumns,
      enrolmentId: enrolments.id,
      reference: enrolments.reference,
      paymentMethod: enrolments.paymentMethod,
      payerFirstName: users.firstName,
      payerLastName: users.lastName,
    })
    .from(enrolments)
    .innerJoin(registrations, and(eq(registrations.enrolmentId, enrolments.id), eq(registrations.eventId, enrolments.eventId)))
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .innerJoin(users, eq(users.id, enrolments.userId))
    .where(and(inArray(enrolments.id, enrolmentIds), eq(enrolments.eventId, eventId)))
    .orderBy(asc(registrations.id))
    .all();
}

/** The payments of these enrolments of the event, in the order asked; unknown ones are left out. */
export function getEnrolmentPayments(eventId: number, enrolmentIds: number[]): EnrolmentPayment[] {
  if (!enrolmentIds.length) return [];
  const rows = paymentRows(eventId, enrolmentIds);
  return enrolmentIds.flatMap((id) => {
    const own = rows.filter((r) => r.enrolmentId === id);
    return own.length ? [paymentOf(own)] : [];
  });
}

function paymentOf(rows: ReturnType<typeof paymentRows>): EnrolmentPayment {
  const [first] = rows;
  const children = rows.map((r) => ({
    id: r.id,
    firstName: r.firstName,
    lastName: r.lastName,
    applicationStatus: r.applicationStatus,
    paid: r.paid,
    waitingListPosition: r.waitingListPosition,
    offerExpiresAt: r.offerExpiresAt ? r.offerExpiresAt.getTime() : null,
    amountCents: r.amountCents,
  }));
  return {
    id: first.enrolmentId,
    reference: first.reference,
    paymentMethod: first.paymentMethod,
    payer: `${first.payerFirstName} ${first.payerLastName}`,
    children,
    totalCents: children.filter(paysNow).reduce((sum, c) => sum + (c.amountCents ?? 0), 0),
    openCents: children.filter(owes).reduce((sum, c) => sum + (c.amountCents ?? 0), 0),
    owingIds: children.filter(owes).map((c) => c.id),
    amountUnknown: children.some((c) => owes(c) && c.amountCents === null),
  };
}

/**
 * The enrolments a search names by their transfer references (a statement's line), this event's
 * only; and the references of this event that name no enrolment (mistyped by the payer).
 */
export function enrolmentPaymentsIn(search: string, eventId: number) {
  const here = referencesIn(search).filter((r) => r.eventId === eventId);
  const found = getEnrolmentPayments(
    eventId,
    here.map((r) => r.enrolmentId),
  );
  const known = new Set(found.map((p) => p.id));
  return { found, unknown: here.filter((r) => !known.has(r.enrolmentId)).map((r) => r.reference) };
}
