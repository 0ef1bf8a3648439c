// What every change of a registration needs: the registration with the facts the state machine
// asks and the names a mail uses (one query), its history entry, and the mail to the parent.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { enrolments, events, participants, registrationHistory, registrations, users } from "../../db/schema";
import { debitNotice, mandateReference } from "~/lib/creditor-id";
import { formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { formatIban } from "~/lib/iban";
import type { RegistrationAction } from "~/lib/enums";
import { childAmounts } from "~/lib/money";
import { owes, type RegistrationFacts } from "~/lib/registration-machine";
import { type Queryable, type Tx } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { GIROCODE_LINE, girocodeAttachment } from "~/services/girocode.server";
import { GREETING, queueMail, type MailAttachment } from "~/services/mail.server";
import { placesTakenOf } from "./enrollment-queries.server";

/**
 * Places taken: open and accepted registrations and open waiting-list offers (DECISIONS.md).
 * One prepared query (enrollment-queries.server.ts) for every capacity check; inside a write
 * transaction it counts what the transaction sees (one connection).
 */
export function placesTaken(eventId: number) {
  return placesTakenOf().get({ eventId })!.n;
}

/**
 * A waiting registration's place in line (1, 2, …); null for any other. The stored positions keep
 * the order of arrival and are not renumbered when someone ahead leaves the list (a place taken,
 * given back, 'Nachrücken'), so the place shown to parents and leaders is counted from them: the
 * waiting registrations of the event at or before this one, read from the index of the positions,
 * less the open offers before it, which hold a place and are no longer in line (DECISIONS.md; read
 * from the index of open offers, a few rows). An offered registration keeps a place of its own.
 * The outer row's columns are named with their table: drizzle leaves a column of a query on one
 * table unqualified, and inside the subquery that named the subquery's own row (every waiting
 * registration of every event counted).
 */
export const waitingPlace = sql<number | null>`(case when "registrations"."waiting_list_position" is null then null else (select count(*) from "registrations" as "ahead" where "ahead"."event_id" = "registrations"."event_id" and "ahead"."waiting_list_position" <= "registrations"."waiting_list_position") - (select count(*) from "registrations" as "offered" indexed by "registrations_event_offer_idx" where "offered"."event_id" = "registrations"."event_id" and "offered"."offer_expires_at" is not null and "offered"."waiting_list_position" < "registrations"."waiting_list_position") end)`;

/** A registration's state with its child's name: what every list of registrations shows. Its
 * `waitingListPosition` is the place in line (waitingPlace). */
export const registrationStateColumns = {
  id: registrations.id,
  firstName: participants.firstName,
  lastName: participants.lastName,
  applicationStatus: registrations.applicationStatus,
  paid: registrations.paid,
  waitingListPosition: waitingPlace,
  offerExpiresAt: registrations.offerExpiresAt,
  // A free event's places owe nothing: no payment state (paymentStatusWord).
  amountCents: registrations.amountCents,
};

/** Something to pay for this registration's place: not free (an amount not known is owed, as
 * `owes` says). */
export const hasAmountDue = sql`coalesce(${registrations.amountCents}, 1) > 0`;

const columns = {
  id: registrations.id,
  eventId: registrations.eventId,
  userId: registrations.userId,
  applicationStatus: registrations.applicationStatus,
  waitingListPosition: registrations.waitingListPosition,
  offerExpiresAt: registrations.offerExpiresAt,
  paid: registrations.paid,
  paymentMailAt: registrations.paymentMailAt,
  paymentMethod: registrations.paymentMethod,
  amountCents: registrations.amountCents,
  sepaMandateId: registrations.sepaMandateId,
  enrolmentId: registrations.enrolmentId,
  reference: enrolments.reference,
  childFirstName: participants.firstName,
  childLastName: participants.lastName,
  parentEmail: users.email,
  parentFirstName: users.firstName,
  eventTitle: events.title,
  eventDateFrom: events.dateFrom,
  startsAt: events.startsAt,
  capacity: events.capacity,
  offerHours: events.offerHours,
  priceCents: events.priceCents,
  siblingDiscountCents: events.siblingDiscountCents,
};

export type ChangeRow = RegistrationFacts & {
  id: number;
  eventId: number;
  userId: number;
  paymentMethod: "transfer" | "sepa";
  /** When the mail about its confirmed payment goes out; null: none waits (payment-mails.server.ts). */
  paymentMailAt: Date | null;
  amountCents: number | null;
  sepaMandateId: number | null;
  enrolmentId: number | null;
  reference: string | null;
  childFirstName: string;
  childLastName: string;
  parentEmail: string;
  parentFirstName: string;
  eventTitle: string;
  eventDateFrom: string;
  startsAt: Date;
  capacity: number | null;
  offerHours: number;
  priceCents: number;
  siblingDiscountCents: number;
};

function select(tx: Queryable) {
  return tx
    .select(columns)
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .innerJoin(users, eq(users.id, registrations.userId))
    .innerJoin(events, eq(events.id, registrations.eventId))
    .leftJoin(enrolments, eq(enrolments.id, registrations.enrolmentId));
}

/** One registration of one event (null when it is not of that event). */
export function loadForChange(tx: Queryable, eventId: number, registrationId: number): ChangeRow | null {
  if (!Number.isSafeInteger(registrationId) || registrationId <= 0) return null;
  return (select(tx).where(and(eq(registrations.id, registrationId), eq(registrations.eventId, eventId))).get() as ChangeRow | undefined) ?? null;
}

/** Several registrations of one event, in one query. */
export function loadManyForChange(tx: Tx, eventId: number, registrationIds: number[]): ChangeRow[] {
  const ids = registrationIds.filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!ids.length) return [];
  return select(tx).where(and(eq(registrations.eventId, eventId), inArray(registrations.id, ids))).all() as ChangeRow[];
}

/** The waiting registrations of an event without an offer, first in line first. */
export function waitingInLine(tx: Queryable, eventId: number, limit: number): ChangeRow[] {
  return select(tx)
    .where(
      and(
        eq(registrations.eventId, eventId),
        eq(registrations.applicationStatus, "open"),
        sql`${registrations.waitingListPosition} IS NOT NULL`,
        isNull(registrations.offerExpiresAt),
      ),
    )
    .orderBy(registrations.waitingListPosition)
    .limit(limit)
    .all() as ChangeRow[];
}

export function writeHistory(tx: Tx, registrationId: number, actorId: number | null, action: RegistrationAction, reason = "") {
  tx.insert(registrationHistory).values({ registrationId, actorId, action, reason }).run();
}

/**
 * What a registration that gets a place costs: the full price for the account's first child
 * holding a place at the event, the price less the sibling discount for each further one.
 */
export function amountOnGettingPlace(tx: Queryable, row: ChangeRow) {
  const earlier = tx
    .select({ n: sql<number>`count(*)` })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, row.eventId),
        eq(registrations.userId, row.userId),
        inArray(registrations.applicationStatus, ["open", "accepted"]),
        isNull(registrations.waitingListPosition),
      ),
    )
    .get()!.n;
  return childAmounts(row.priceCents, row.siblingDiscountCents, earlier, [true])[0] ?? row.priceCents;
}

export function link(path: string) {
  return `${settings().appUrl}${path}`;
}

/** A mail's paragraph after a blank line, or nothing when it has no lines. */
export const withBlankLine = (lines: string[]) => (lines.length ? ["", ...lines] : []);

/** What a mail to a parent says about paying, and the GiroCode it carries for a transfer. */
export type PaymentRequest = { lines: string[]; attachments: MailAttachment[] };
const nothingToPay = (): PaymentRequest => ({ lines: [], attachments: [] });

/**
 * How to pay for a child that has just got its place (from the waiting list): it was not part of
 * the enrolment's total (DECISIONS.md), so its amount is asked for on its own, with the
 * enrolment's reference. Nothing for a paid or free registration.
 */
export function paymentRequest(row: ChangeRow, amountCents: number | null): PaymentRequest {
  if (row.paid || amountCents === null || amountCents === 0) return nothingToPay();
  const bank = settings().bank;
  if (row.paymentMethod === "sepa") {
    // Told before the debit, as SEPA asks: who collects, under which mandate.
    return {
      lines: [
        `Der Betrag von ${formatEuro(amountCents)} für ${row.childFirstName} wird per SEPA-Lastschrift von dem angegebenen Konto eingezogen.`,
        ...debitNotice(bank, row.sepaMandateId ? mandateReference(row.eventId, row.sepaMandateId) : null),
      ],
      attachments: [],
    };
  }
  const reference = row.reference ?? `Anmeldung ${row.id}`;
  return {
    lines: [
      `Bitte überweise für ${row.childFirstName} ${formatEuro(amountCents)} auf dieses Konto:`,
      `Kontoinhaber: ${bank.accountHolder}`,
      `IBAN: ${formatIban(bank.iban)}`,
      `BIC: ${bank.bic} (${bank.name})`,
      `Verwendungszweck: ${reference}`,
      GIROCODE_LINE,
    ],
    attachments: [girocodeAttachment(amountCents, reference)],
  };
}

/**
 * Asks for a child's amount on its own by its mail (paymentRequest) and marks the registration so:
 * the confirmation page then shows it as a payment of its own, as this mail asked.
 */
export function askAlone(tx: Tx, row: ChangeRow, amountCents: number | null): PaymentRequest {
  const request = paymentRequest(row, amountCents);
  if (request.lines.length > 0) tx.update(registrations).set({ amountAskedAlone: true }).where(eq(registrations.id, row.id)).run();
  return request;
}

/**
 * Where to find how to pay, for a child whose amount was asked for already (in the enrolment's
 * total or when it got its place): the mail points to the confirmation page, which asks only for
 * what is still open, instead of asking for the amount a second time.
 */
export function paymentPointer(row: ChangeRow): PaymentRequest {
  if (row.paid || !row.amountCents || row.paymentMethod !== "transfer") return nothingToPay();
  // A registration from before enrolments had no confirmation page: its mail says it all.
  if (!row.enrolmentId) return paymentRequest(row, row.amountCents);
  return {
    lines: [`Falls du für ${row.childFirstName} noch nicht bezahlt hast: Konto, Betrag und Verwendungszweck stehen auf deiner Anmeldebestätigung:`, link(`/anmeldung/${row.enrolmentId}`)],
    attachments: [],
  };
}

/**
 * What a rejection or cancellation says about money for a child that held a place and still owed
 * its amount (not booked as paid, not free): nothing is to pay for it now. A booked payment has its
 * own line (a refund); a free place or the waiting list owed nothing, so nothing is said.
 */
export function paymentDropped(row: ChangeRow): string[] {
  if (!owes(row)) return [];
  const child = row.childFirstName;
  if (row.paymentMethod === "sepa") return [`Für ${child} wird damit nichts per Lastschrift eingezogen.`];
  return [
    `Für ${child} ist damit nichts zu zahlen.`,
    `Falls du für ${child} schon überwiesen hast: Sobald die Zahlung bei uns verbucht ist, melden wir uns wegen der Rückzahlung bei dir.`,
  ];
}

/** The subject of the mail that tells a parent their payment arrived (held back ten minutes). */
export const PAYMENT_RECEIVED = "Zahlung eingegangen";

/** The subject of a mail to the parent about one child's registration. */
export function parentMailSubject(row: Pick<ChangeRow, "childFirstName" | "childLastName" | "eventTitle">, subject: string) {
  return `${subject}: ${row.childFirstName} ${row.childLastName} – ${row.eventTitle}`;
}

/** Who decided what a mail says: answers go to them (the family's questions reach a person). */
export type AnsweredBy = { email: string; firstName: string; lastName: string };

type ParentMailOptions = { notBefore?: Date; attachments?: MailAttachment[]; answeredBy?: AnsweredBy };

/** A mail to the account that enrolled the child, in the form of the enrolment boxes ('du'). */
export function tellParent(tx: Tx, row: ChangeRow, subject: string, lines: string[], options: ParentMailOptions = {}) {
  mailParent(tx, row, parentMailSubject(row, subject), lines, options);
}

/** The account, its event and what the mail says, whoever it is about (one child or several). */
export function mailParent(
  tx: Tx,
  to: Pick<ChangeRow, "parentEmail" | "parentFirstName" | "eventTitle" | "eventDateFrom">,
  subject: string,
  lines: string[],
  { notBefore, attachments, answeredBy }: ParentMailOptions = {},
) {
  queueMail(tx, {
    to: to.parentEmail,
    subject,
    text: [
      `Hallo ${to.parentFirstName},`,
      "",
      ...lines,
      "",
      `Veranstaltung: ${to.eventTitle} (ab ${formatIsoDate(to.eventDateFrom)})`,
      `Alle Anmeldungen findest du in deinem Konto: ${link("/account?tab=teilnehmer")}`,
      ...(answeredBy ? [`Bei Fragen antworte einfach auf diese E-Mail; sie geht an ${answeredBy.firstName} ${answeredBy.lastName}.`] : []),
      "",
      GREETING.du,
    ].join("\n"),
    attachments,
    replyTo: answeredBy?.email,
  }, { notBefore });
}
