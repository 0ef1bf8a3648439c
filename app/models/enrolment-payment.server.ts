// One enrolment's payment, as the leaders match it against a bank statement (DECISIONS.md, one
// enrolment, one payment): the transfer's reference names the enrolment; its children that hold a
// place make the total. Read in one query, whatever the number of children.
import { and, asc, eq } from "drizzle-orm";
import { enrolments, participants, registrations, users } from "../../db/schema";
import { owes, paysNow } from "~/lib/registration-machine";
import { referenceParts } from "~/lib/transfer";
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

export function getEnrolmentPayment(eventId: number, enrolmentId: number): EnrolmentPayment | null {
  const rows = db
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
    .where(and(eq(enrolments.id, enrolmentId), eq(enrolments.eventId, eventId)))
    .orderBy(asc(registrations.id))
    .all();
  if (!rows.length) return null;
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

/** The enrolment a search names by its transfer reference, when it is one of this event's. */
export function enrolmentPaymentIn(search: string, eventId: number) {
  const parts = referenceParts(search);
  return parts && parts.eventId === eventId ? getEnrolmentPayment(eventId, parts.enrolmentId) : null;
}
