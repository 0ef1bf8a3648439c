// The leaders' decisions on registrations (spec part 2 §4): each in one write transaction, only
// the transitions of the state machine, a history entry with the person and the reason, the
// parent told by mail through the outbox, an audit entry; a freed place goes to the waiting list
// in the same transaction. A repeated decision changes nothing more.
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { enrolments, events, groupMembers, registrations } from "../../db/schema";
import type { RegistrationAction } from "~/lib/enums";
import { enrolmentReference } from "~/lib/transfer";
import { hasVisibleCharacter } from "~/lib/unseen";
import {
  holdsPlace,
  isAllowed,
  isAlreadyDone,
  paysNow,
  REASON_REQUIRED,
  refusalText,
  stateOf,
  NO_FREE_PLACE,
  placesWithOneMore,
  REASON_MAX,
  type Decision,
} from "~/lib/registration-machine";
import { db, writeTransaction, type Tx } from "~/services/db.server";
import { recordAudit, type AuditAction } from "./audit.server";
import {
  amountOnGettingPlace,
  placesTaken,
  loadForChange,
  loadManyForChange,
  askAlone,
  paymentDropped,
  paymentPointer,
  withBlankLine,
  tellParent,
  writeHistory,
  type ChangeRow,
} from "./registration-change.server";
import type { SessionUser } from "./user.server";
import { offerFreePlaces } from "./waiting-list.server";
import { childrenNamed, PAYMENT_MAIL_NOTE, paymentMailTime } from "./payment-mails.server";

export const REASON_MISSING = "Begründung ist erforderlich";


export type DecisionOutcome =
  | { ok: true; changed: boolean; message: string }
  | { ok: false; status: 400 | 404 | 409; message: string; field?: "reason" };

const DONE: Record<Decision, string> = {
  accept: "Die Anmeldung ist bestätigt.",
  reject: "Die Anmeldung ist abgelehnt.",
  cancel: "Die Anmeldung ist storniert.",
  "revoke-rejection": "Die Ablehnung ist aufgehoben.",
  "move-up": "Die Anmeldung ist von der Warteliste nachgerückt.",
  "confirm-payment": `Die Bezahlung ist bestätigt. ${PAYMENT_MAIL_NOTE} (nicht, wenn du bis dahin widerrufst).`,
  "revoke-payment": "Die Bezahlung ist widerrufen.",
};

const HISTORY: Record<Decision, RegistrationAction> = {
  accept: "accepted",
  reject: "rejected",
  cancel: "cancelled",
  "revoke-rejection": "rejection_revoked",
  "move-up": "moved_from_waiting_list",
  "confirm-payment": "payment_confirmed",
  "revoke-payment": "payment_revoked",
};

const AUDIT: Record<Decision, AuditAction> = {
  accept: "registration.accepted",
  reject: "registration.rejected",
  cancel: "registration.cancelled",
  "revoke-rejection": "registration.rejection_revoked",
  "move-up": "registration.moved_up",
  "confirm-payment": "registration.payment_confirmed",
  "revoke-payment": "registration.payment_revoked",
};

function freePlaces(tx: Tx, row: ChangeRow) {
  return row.capacity === null ? Infinity : row.capacity - placesTaken(row.eventId);
}

function nextWaitingPosition(tx: Tx, eventId: number) {
  return (
    tx
      .select({ n: sql<number>`coalesce(max(${registrations.waitingListPosition}), 0)` })
      .from(registrations)
      .where(eq(registrations.eventId, eventId))
      .get()!.n + 1
  );
}

/** What a decision may do besides: 'Nachrücken' into a full camp makes one more place when asked. */
export type DecisionOptions = { addPlace?: boolean };

/**
 * One more place for the child moving up by hand (DECISIONS.md: 'Nachrücken' skips the order).
 * Every freed place is offered to the first in line at once, so a waiting child never finds one
 * free; the step asks first and says how many places the event has then. Returns the new number.
 */
function addPlaceFor(tx: Tx, row: ChangeRow, actor: SessionUser, now: Date) {
  const from = row.capacity!;
  const to = placesWithOneMore(from, placesTaken(row.eventId));
  tx.update(events).set({ capacity: to, updatedAt: now }).where(eq(events.id, row.eventId)).run();
  recordAudit(tx, { actorId: actor.id, action: "event.place_added", entityType: "event", entityId: row.eventId, details: { from, to, registrationId: row.id } });
  return to;
}

/** Applies an allowed decision; the caller has checked the state machine. */
function apply(tx: Tx, row: ChangeRow, decision: Decision, actor: SessionUser, reason: string, now: Date, options: DecisionOptions = {}): DecisionOutcome | null {
  const set = (values: Partial<typeof registrations.$inferInsert>) =>
    tx.update(registrations).set({ ...values, updatedAt: now }).where(eq(registrations.id, row.id)).run();
  const heldPlace = holdsPlace(stateOf(row));
  // What the lead reads besides the decision's own words (its flash).
  let note = "";
  const because = reason ? ["", `Begründung: ${reason}`] : [];
  switch (decision) {
    case "accept": {
      set({ applicationStatus: "accepted" });
      // The enrolment's total or the mail about its place asked for the amount already.
      const pointer = paymentPointer(row);
      tellParent(tx, row, "Anmeldung bestätigt", [
        `die Anmeldung von ${row.childFirstName} ist bestätigt. Wir freuen uns auf euch!`,
        // Accepting takes a note, not a reason (DECISIONS.md).
        ...(reason ? ["", `Notiz der Leitung: ${reason}`] : []),
        ...withBlankLine(pointer.lines),
      ], { attachments: pointer.attachments, answeredBy: actor });
      break;
    }
    case "reject":
    case "cancel":
      // A confirmation of the payment still waiting to be mailed would thank them after this mail.
      set({ applicationStatus: decision === "reject" ? "rejected" : "cancelled", waitingListPosition: null, offerExpiresAt: null, offerOwnEnd: null, paymentMailAt: null });
      // Out of the camp, out of its group (as a helper who is no longer one).
      tx.delete(groupMembers).where(and(eq(groupMembers.eventId, row.eventId), eq(groupMembers.registrationId, row.id))).run();
      tellParent(tx, row, decision === "reject" ? "Anmeldung abgelehnt" : "Anmeldung storniert", [
        decision === "reject"
          ? `die Anmeldung von ${row.childFirstName} wurde leider abgelehnt.`
          : `die Anmeldung von ${row.childFirstName} wurde storniert.`,
        ...because,
        ...(row.paid ? ["", `Deine Zahlung für ${row.childFirstName} ist bei uns eingegangen; wegen der Rückzahlung melden wir uns bei dir.`] : []),
        ...withBlankLine(paymentDropped(row)),
      ], { answeredBy: actor });
      break;
    case "revoke-rejection": {
      // Back to the leaders' decision with a place, or at the end of the waiting list.
      const placed = freePlaces(tx, row) > 0;
      const amountCents = placed ? amountOnGettingPlace(tx, row) : null;
      set(placed ? { applicationStatus: "open", amountCents } : { applicationStatus: "open", waitingListPosition: nextWaitingPosition(tx, row.eventId) });
      // The lead is told as the parent is (leaders' review: the flash said only 'aufgehoben').
      if (!placed) note = ` Kein Platz frei: ${row.childFirstName} steht jetzt am Ende der Warteliste.`;
      // A place given now is asked for on its own, as one from the waiting list is.
      const payment = askAlone(tx, row, amountCents);
      tellParent(tx, row, "Ablehnung aufgehoben", [
        placed
          ? `die Ablehnung der Anmeldung von ${row.childFirstName} ist aufgehoben; die Anmeldung wird neu geprüft.`
          : `die Ablehnung der Anmeldung von ${row.childFirstName} ist aufgehoben; ${row.childFirstName} steht jetzt auf der Warteliste.`,
        ...withBlankLine(payment.lines),
      ], { attachments: payment.attachments, answeredBy: actor });
      break;
    }
    case "move-up": {
      // An offered registration holds its place already; a waiting one needs a free place.
      if (stateOf(row) === "waiting" && freePlaces(tx, row) <= 0) {
        if (!options.addPlace) return { ok: false, status: 409, message: NO_FREE_PLACE };
        note = ` Die Veranstaltung hat jetzt ${addPlaceFor(tx, row, actor, now)} Plätze.`;
      }
      const amountCents = amountOnGettingPlace(tx, row);
      set({ waitingListPosition: null, offerExpiresAt: null, offerOwnEnd: null, amountCents });
      const payment = askAlone(tx, row, amountCents);
      tellParent(tx, row, "Nachgerückt", [
        `${row.childFirstName} ist von der Warteliste nachgerückt und hat jetzt einen Platz. Die Leitung bestätigt die Anmeldung noch.`,
        ...because,
        ...withBlankLine(payment.lines),
      ], { attachments: payment.attachments, answeredBy: actor });
      break;
    }
    case "confirm-payment":
      // Mailed after PAYMENT_MAIL_DELAY_MS with the siblings confirmed meanwhile: a confirmation
      // made by mistake and revoked before never reaches the parent (payment-mails.server.ts).
      set({ paid: true, paymentMailAt: paymentMailTime(now) });
      break;
    case "revoke-payment":
      set({ paid: false, paymentMailAt: null });
      // The parent was told it arrived: they are told it has not (after all), and how to pay, as
      // long as the child holds a place; a cancelled or rejected registration pays nothing.
      if (row.paymentMailAt === null && paysNow(row)) {
        const payment = askAlone(tx, { ...row, paid: false }, row.amountCents);
        tellParent(tx, row, "Zahlung noch offen", [
          `die Zahlung für ${row.childFirstName} ist bei uns doch noch nicht verbucht; die Bestätigung ist zurückgenommen. Bitte entschuldige das Hin und Her.`,
          ...because,
          ...withBlankLine(payment.lines),
        ], { attachments: payment.attachments, answeredBy: actor });
      }
      break;
  }
  writeHistory(tx, row.id, actor.id, HISTORY[decision], reason);
  recordAudit(tx, { actorId: actor.id, action: AUDIT[decision], entityType: "registration", entityId: row.id, details: { eventId: row.eventId, ...(reason ? { reason } : {}) } });
  // A place given up goes to the next in line, in this same transaction.
  if (heldPlace && (decision === "reject" || decision === "cancel")) offerFreePlaces(tx, row.eventId, now);
  return note ? { ok: true, changed: true, message: `${row.childFirstName} ${row.childLastName}: ${DONE[decision]}${note}` } : null;
}

function checkReason(decision: Decision, reason: string): DecisionOutcome | null {
  if (reason.length > REASON_MAX) return { ok: false, status: 400, message: `Höchstens ${REASON_MAX} Zeichen`, field: "reason" };
  if (REASON_REQUIRED.includes(decision) && !hasVisibleCharacter(reason)) return { ok: false, status: 400, message: REASON_MISSING, field: "reason" };
  return null;
}

export function decide(eventId: number, registrationId: number, decision: Decision, actor: SessionUser, reasonInput = "", now = new Date(), options: DecisionOptions = {}): DecisionOutcome {
  const reason = reasonInput.trim();
  const invalid = checkReason(decision, reason);
  if (invalid) return invalid;
  return writeTransaction((tx) => {
    const row = loadForChange(tx, eventId, registrationId);
    if (!row) return { ok: false, status: 404, message: "Diese Anmeldung gibt es bei dieser Veranstaltung nicht." };
    // The child's name first: on a long list the flash says whose row it was.
    const done = `${row.childFirstName} ${row.childLastName}: ${DONE[decision]}`;
    if (isAlreadyDone(decision, row)) return { ok: true, changed: false, message: done };
    if (!isAllowed(decision, row)) return { ok: false, status: 409, message: refusalText(decision, row) };
    return apply(tx, row, decision, actor, reason, now, options) ?? { ok: true, changed: true, message: done };
  });
}

export const NONE_PICKED = "Bitte wähle mindestens eine offene Anmeldung aus.";

/** Accepts several open registrations at once; others are left as they are and counted. */
export function acceptMany(eventId: number, registrationIds: number[], actor: SessionUser, noteInput = "", now = new Date()): DecisionOutcome {
  const note = noteInput.trim();
  const invalid = checkReason("accept", note);
  if (invalid) return invalid;
  if (!registrationIds.length) return { ok: false, status: 400, message: NONE_PICKED };
  return writeTransaction((tx) => {
    // This event's registrations, each once: other ids are no registration of this list.
    const rows = loadManyForChange(tx, eventId, [...new Set(registrationIds)]);
    if (!rows.length) return { ok: false, status: 404, message: "Diese Anmeldungen gibt es bei dieser Veranstaltung nicht." };
    let accepted = 0;
    for (const row of rows) {
      if (!isAllowed("accept", row)) continue;
      apply(tx, row, "accept", actor, note, now);
      accepted++;
    }
    const skipped = rows.length - accepted;
    const left = skipped === 1 ? "1 war nicht (mehr) offen und blieb unverändert." : `${skipped} waren nicht (mehr) offen und blieben unverändert.`;
    const message = `${accepted} ${accepted === 1 ? "Anmeldung" : "Anmeldungen"} bestätigt.${skipped ? ` ${left}` : ""}`;
    return { ok: true, changed: accepted > 0, message };
  });
}

/**
 * 'Bezahlung bestätigen' for every unpaid place-holding registration that `belongs` picks (of one
 * SEPA mandate, of one enrolment's transfer), in one transaction; returns the rows confirmed. With
 * `shown` (the ids the button named), nothing is confirmed unless exactly those are open: a tab
 * opened before a sibling got its place must not confirm that sibling unseen.
 */
function confirmPaymentsOf(eventId: number, belongs: SQL, actor: SessionUser, now: Date, shown?: number[]) {
  return writeTransaction((tx) => {
    const ids = tx
      .select({ id: registrations.id })
      .from(registrations)
      .where(and(eq(registrations.eventId, eventId), belongs, inArray(registrations.applicationStatus, ["open", "accepted"]), isNull(registrations.waitingListPosition)))
      .all()
      .map((r) => r.id);
    const owing = loadManyForChange(tx, eventId, ids).filter((row) => isAllowed("confirm-payment", row));
    const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b).join();
    const stale = shown !== undefined && owing.length > 0 && sorted(owing.map((row) => row.id)) !== sorted(new Set(shown));
    if (stale) return { found: ids.length, confirmed: [], stale };
    for (const row of owing) apply(tx, row, "confirm-payment", actor, "", now);
    return { found: ids.length, confirmed: owing, stale };
  });
}

/** 'Bezahlung bestätigen' for every unpaid place-holding registration of one SEPA mandate (with
 * `shown`, the page's: exactly those, or nothing). */
export function confirmMandatePayments(eventId: number, sepaMandateId: number, actor: SessionUser, now = new Date(), shown?: number[]): DecisionOutcome {
  const { found, confirmed, stale } = confirmPaymentsOf(eventId, eq(registrations.sepaMandateId, sepaMandateId), actor, now, shown);
  if (!found) return { ok: false, status: 404, message: "Zu diesem Mandat gibt es keine Anmeldung mit Platz." };
  if (stale) return { ok: false, status: 409, message: "Die offenen Zahlungen dieses Mandats haben sich inzwischen geändert. Bitte vergleiche den Betrag noch einmal." };
  const mailNote = confirmed.length > 0 ? ` ${PAYMENT_MAIL_NOTE}.` : "";
  return { ok: true, changed: confirmed.length > 0, message: `Bezahlung für ${confirmed.length} ${confirmed.length === 1 ? "Anmeldung" : "Anmeldungen"} bestätigt.${mailNote}` };
}

/**
 * The payment of one enrolment (DECISIONS.md, one enrolment, one payment): its transfer, found on
 * the bank statement by its reference, pays for every child of it that holds a place (with
 * `shown`, the button's: exactly those, or nothing).
 */
export function confirmEnrolmentPayments(eventId: number, enrolmentId: number, actor: SessionUser, now = new Date(), shown?: number[]): DecisionOutcome {
  const { found, confirmed, stale } = confirmPaymentsOf(eventId, eq(registrations.enrolmentId, enrolmentId), actor, now, shown);
  if (!found) return { ok: false, status: 404, message: "Zu dieser Anmeldung gibt es bei dieser Veranstaltung kein Kind mit Platz." };
  // Named as its panel names it (the stored reference; older enrolments have their own form):
  // several enrolments' panels may stand on the page (a statement's line with two references).
  // Read only for these two answers.
  const reference = () => db.select({ reference: enrolments.reference }).from(enrolments).where(eq(enrolments.id, enrolmentId)).get()?.reference ?? enrolmentReference(eventId, enrolmentId);
  if (stale) return { ok: false, status: 409, message: `Die offenen Zahlungen der Anmeldung ${reference()} haben sich inzwischen geändert. Bitte vergleiche den Betrag noch einmal.` };
  if (!confirmed.length) return { ok: true, changed: false, message: `Für die Anmeldung ${reference()} ist keine Zahlung mehr offen.` };
  const names = childrenNamed(confirmed.map((row) => ({ firstName: row.childFirstName, lastName: row.childLastName })));
  return { ok: true, changed: true, message: `Bezahlung für ${names} bestätigt. ${PAYMENT_MAIL_NOTE}.` };
}
