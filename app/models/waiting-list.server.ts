// The waiting list moves by itself (DECISIONS.md): a freed place is offered to the first in line
// and held for the event's offer time; the parent takes it or lets it go; an offer that runs out
// passes the place on. Deadlines live in the database (registrations.offer_expires_at); the
// scheduler only asks `expireOffers(now)` now and then, so a restart loses nothing.
import { and, desc, eq, gt, isNotNull, lt, lte, sql } from "drizzle-orm";
import { events, registrationHistory, registrations } from "../../db/schema";
import { formatDate, formatTime } from "~/lib/dates";
import { canAnswerOffer, stateOf, type OfferAnswer } from "~/lib/registration-machine";
import { db, writeTransaction, type Queryable, type Tx } from "~/services/db.server";
import { recordAudit } from "./audit.server";
import {
  amountOnGettingPlace,
  placesTaken,
  link,
  loadForChange,
  loadManyForChange,
  askAlone,
  tellParent,
  waitingInLine,
  writeHistory,
  withBlankLine,
  type ChangeRow,
} from "./registration-change.server";
import type { SessionUser } from "./user.server";

export const OFFER_NOT_TAKEN = "Platz nicht angenommen";

/**
 * Offers every free place of the event to the next in line, inside the caller's transaction
 * (the one that freed the place). None once the event has started, and none held past its start.
 * Returns how many.
 */
export function offerFreePlaces(tx: Tx, eventId: number, now = new Date()) {
  const event = tx
    .select({ capacity: events.capacity, startsAt: events.startsAt, offerHours: events.offerHours })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
  if (!event || event.startsAt.getTime() <= now.getTime()) return 0;
  const free = event.capacity === null ? 10_000 : event.capacity - placesTaken(eventId);
  if (free <= 0) return 0;
  // Held for the offer time, and never past the start: no offers once the event has started.
  // The offer's own end is kept: a start moved earlier and then later again gives it back.
  const ownEnd = new Date(now.getTime() + event.offerHours * 3600_000);
  const expiresAt = new Date(Math.min(ownEnd.getTime(), event.startsAt.getTime()));
  const next = waitingInLine(tx, eventId, free);
  for (const row of next) {
    tx.update(registrations).set({ offerExpiresAt: expiresAt, offerOwnEnd: ownEnd, updatedAt: now }).where(eq(registrations.id, row.id)).run();
    writeHistory(tx, row.id, null, "offered");
    recordAudit(tx, { actorId: null, action: "registration.offered", entityType: "registration", entityId: row.id, details: { eventId } });
    tellParent(tx, row, "Ein Platz ist frei geworden", [
      `für ${row.childFirstName} ist ein Platz frei geworden. Wir halten ihn bis ${formatDate(expiresAt)}, ${formatTime(expiresAt)} für euch frei.`,
      "",
      ...offerLinks(row.id, expiresAt.getTime() < event.startsAt.getTime()),
    ]);
  }
  return next.length;
}

/**
 * The start moved (the edit form, inside its transaction): open offers end at the new start at the
 * latest, so that none is taken once the event has started; a start moved later gives an offer
 * cut short to the start before (`from`) its time back, up to its own end. Each parent is told the
 * new end with the offer's links again. A start already passed (an event that has begun, saved
 * while the scheduler has not yet ended its offers) ends the offer; the run-out mail says so.
 * Returns how many parents were told of a shorter and of a longer offer, and how many offers
 * ended at once.
 */
export function fitOffersToStart(tx: Tx, eventId: number, { from, to: startsAt }: { from: Date; to: Date }, actorId: number, now = new Date()) {
  const open = and(eq(registrations.eventId, eventId), eq(registrations.applicationStatus, "open"));
  const shortened = tx
    .update(registrations)
    .set({ offerExpiresAt: startsAt })
    .where(and(open, gt(registrations.offerExpiresAt, startsAt)))
    .returning({ id: registrations.id })
    .all();
  if (startsAt.getTime() <= now.getTime()) return { shortened: 0, extended: 0, ended: shortened.length };
  // Only offers that end at the start before, and only when the start moved later; an offer that
  // has run out (the scheduler ends it within a minute) is not brought back.
  const longer = sql`min(${registrations.offerOwnEnd}, ${startsAt.getTime()})`;
  const extended =
    startsAt.getTime() > from.getTime()
      ? tx
          .update(registrations)
          .set({ offerExpiresAt: sql`${longer}` })
          .where(and(open, eq(registrations.offerExpiresAt, from), gt(registrations.offerExpiresAt, now), lt(registrations.offerExpiresAt, longer)))
          .returning({ id: registrations.id, offerExpiresAt: registrations.offerExpiresAt })
          .all()
      : [];
  const rows = loadManyForChange(tx, eventId, [...shortened, ...extended].map(({ id }) => id));
  const endOf = new Map(extended.map((r) => [r.id, r.offerExpiresAt!]));
  for (const row of rows) {
    const until = endOf.get(row.id);
    const action = until ? "registration.offer_extended" : "registration.offer_shortened";
    recordAudit(tx, { actorId, action, entityType: "registration", entityId: row.id, details: { eventId } });
    if (until) {
      tellParent(tx, row, "Platzangebot gilt wieder länger", [
        `die Veranstaltung beginnt jetzt erst am ${formatDate(startsAt)} um ${formatTime(startsAt)}. Wir halten den Platz für ${row.childFirstName} deshalb wieder bis ${formatDate(until)}, ${formatTime(until)} frei.`,
        "",
        ...offerLinks(row.id, until.getTime() < startsAt.getTime()),
      ]);
    } else {
      tellParent(tx, row, "Platzangebot endet früher", [
        `die Veranstaltung beginnt jetzt schon am ${formatDate(startsAt)} um ${formatTime(startsAt)}. Bis dahin halten wir den Platz für ${row.childFirstName} frei.`,
        "",
        ...offerLinks(row.id, false),
      ]);
    }
  }
  return { shortened: shortened.length, extended: extended.length, ended: 0 };
}

/**
 * The offer mail's two links and what happens without an answer: the place is passed on when the
 * offer ends before the start (whether anyone waits then is not known now), else to nobody.
 */
function offerLinks(registrationId: number, passedOn: boolean) {
  return [
    `Platz annehmen: ${link(`/platzangebot/${registrationId}/annehmen`)}`,
    `Platz freigeben: ${link(`/platzangebot/${registrationId}/freigeben`)}`,
    "",
    passedOn ? "Wenn du bis dahin nicht antwortest, verfällt das Angebot, und wir geben den Platz weiter." : "Wenn du bis dahin nicht antwortest, verfällt das Angebot.",
  ];
}

/** Takes the place: the registration holds it from now on, open for the leaders' decision. */
function takePlace(tx: Tx, row: ChangeRow, now: Date) {
  const amountCents = amountOnGettingPlace(tx, row);
  tx.update(registrations)
    .set({ waitingListPosition: null, offerExpiresAt: null, offerOwnEnd: null, amountCents, updatedAt: now })
    .where(eq(registrations.id, row.id))
    .run();
  return amountCents;
}

/** What happened to a place let go, in the parent's words (mail review: nobody may be waiting). */
const passedOnText = (passedOn: boolean) => (passedOn ? "der Platz geht an das nächste Kind auf der Warteliste" : "der Platz ist wieder frei");
const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}.`;

/**
 * Why an offer ran out, in the parent's words: an offer that ended at the start goes to nobody
 * (leaders' review: "der Platz ist wieder frei" promised a place nobody gets any more).
 */
function ranOut(row: ChangeRow, passedOn: boolean) {
  const atStart = row.offerExpiresAt !== null && new Date(row.offerExpiresAt).getTime() >= row.startsAt.getTime();
  return atStart
    ? { mail: "abgelaufen, weil die Veranstaltung begonnen hat", page: "Das Angebot ist abgelaufen, weil die Veranstaltung begonnen hat." }
    : { mail: `abgelaufen; ${passedOnText(passedOn)}`, page: `Das Angebot ist abgelaufen. ${sentence(passedOnText(passedOn))}` };
}

/**
 * Lets the place go: off the waiting list ('storniert'), and the place goes to the next in line.
 * Returns whether someone got it.
 */
function releasePlace(tx: Tx, row: ChangeRow, now: Date, action: "offer_declined" | "offer_expired") {
  tx.update(registrations)
    .set({ applicationStatus: "cancelled", waitingListPosition: null, offerExpiresAt: null, offerOwnEnd: null, amountCents: null, updatedAt: now })
    .where(eq(registrations.id, row.id))
    .run();
  writeHistory(tx, row.id, action === "offer_declined" ? row.userId : null, action, OFFER_NOT_TAKEN);
  // Declined: the parent did it; run out: the app (shown as 'System' in the protocol).
  const actorId = action === "offer_declined" ? row.userId : null;
  recordAudit(tx, { actorId, action: `registration.${action}`, entityType: "registration", entityId: row.id, details: { eventId: row.eventId } });
  return offerFreePlaces(tx, row.eventId, now) > 0;
}

export type OfferOutcome =
  | { ok: true; answer: OfferAnswer; eventId: number; passedOn: boolean; repeated?: string }
  | { ok: false; status: 404 | 409 | 410; message: string; eventId?: number };

/** What the parent may see of an offer (the page with one button). */
export function getOffer(registrationId: number, user: SessionUser, now = new Date()) {
  const row = findOwn(db, registrationId, user);
  if (!row) return null;
  const open = canAnswerOffer(row, now);
  // What taking the place costs now, as the answer would store it.
  const amountCents = open ? amountOnGettingPlace(db, row) : 0;
  const cost = amountCents > 0 ? { amountCents, discounted: amountCents < row.priceCents, paymentMethod: row.paymentMethod } : null;
  return { row, open, state: stateOf(row), cost, gone: open ? null : offerGone(db, row) };
}

/**
 * What became of an offer that can no longer be answered, for its link opened again (it said
 * only "answered or no longer valid"). A cancellation asks the registration's history whether
 * the parent gave the place away or the offer ran out.
 */
function offerGone(tx: Queryable, row: ChangeRow): string {
  const child = `${row.childFirstName} ${row.childLastName}`;
  switch (stateOf(row)) {
    case "offered":
      return `Das Angebot für ${child} ist abgelaufen.`;
    case "open":
      return `${child} hat den Platz schon. Die Leitung prüft die Anmeldung noch; ihre Entscheidung bekommst du per E-Mail.`;
    case "accepted":
      return `${child} hat den Platz schon, und die Leitung hat die Anmeldung bestätigt.`;
    case "waiting":
      return `Das Angebot gilt nicht mehr. ${child} steht auf Platz ${row.waitingListPosition} der Warteliste.`;
    case "rejected":
      return `Die Anmeldung von ${child} wurde abgelehnt.`;
    case "cancelled": {
      const last = lastChange(tx, row.id);
      if (last === "offer_declined") return `Du hast den Platz für ${child} freigegeben. Die Anmeldung ist storniert.`;
      if (last === "offer_expired") return `Das Angebot für ${child} ist abgelaufen, ohne dass es angenommen wurde. Die Anmeldung ist storniert.`;
      return `Die Anmeldung von ${child} ist storniert.`;
    }
  }
}

function lastChange(tx: Queryable, registrationId: number) {
  return tx
    .select({ action: registrationHistory.action })
    .from(registrationHistory)
    .where(eq(registrationHistory.registrationId, registrationId))
    .orderBy(desc(registrationHistory.id))
    .get()?.action;
}

/**
 * Whether what the answer asks for holds already: the child has the place (taken before, or
 * given by the leaders meanwhile, and confirmed or not), or the place was given away.
 */
function answeredSo(tx: Queryable, row: ChangeRow, answer: OfferAnswer) {
  const state = stateOf(row);
  if (answer === "accept") return state === "open" || state === "accepted";
  return state === "cancelled" && lastChange(tx, row.id) === "offer_declined";
}

function findOwn(tx: Queryable, registrationId: number, user: SessionUser) {
  if (!Number.isSafeInteger(registrationId) || registrationId <= 0) return null;
  const eventId = tx.select({ eventId: registrations.eventId, userId: registrations.userId }).from(registrations).where(eq(registrations.id, registrationId)).get();
  if (!eventId || eventId.userId !== user.id) return null;
  return loadForChange(tx, eventId.eventId, registrationId);
}

/**
 * 'Platz annehmen' or 'Platz freigeben', once; a repeat or a late answer changes nothing. An
 * answer that holds already (a double tap; a place the leaders gave meanwhile) is answered as
 * given, with what became of the offer (`repeated`); the other answer after it is refused.
 */
export function answerOffer(registrationId: number, user: SessionUser, answer: OfferAnswer, now = new Date()): OfferOutcome {
  return writeTransaction((tx) => {
    const row = findOwn(tx, registrationId, user);
    if (!row) return { ok: false, status: 404, message: "Dieses Angebot gibt es nicht." };
    if (stateOf(row) === "offered" && !canAnswerOffer(row, now)) {
      const said = ranOut(row, releasePlace(tx, row, now, "offer_expired"));
      tellParent(tx, row, "Platzangebot abgelaufen", [`das Angebot für ${row.childFirstName} ist leider ${said.mail}.`]);
      return { ok: false, status: 410, message: said.page, eventId: row.eventId };
    }
    if (stateOf(row) !== "offered") {
      if (answeredSo(tx, row, answer)) return { ok: true, answer, eventId: row.eventId, passedOn: false, repeated: offerGone(tx, row) };
      return { ok: false, status: 409, message: offerGone(tx, row), eventId: row.eventId };
    }
    let passedOn = false;
    if (answer === "accept") {
      const amountCents = takePlace(tx, row, now);
      writeHistory(tx, row.id, user.id, "offer_accepted");
      recordAudit(tx, { actorId: user.id, action: "registration.offer_accepted", entityType: "registration", entityId: row.id, details: { eventId: row.eventId } });
      const payment = askAlone(tx, row, amountCents);
      tellParent(tx, row, "Platz angenommen", [
        `${row.childFirstName} hat jetzt einen Platz. Die Leitung prüft die Anmeldung noch und bestätigt sie dann.`,
        ...withBlankLine(payment.lines),
      ], { attachments: payment.attachments });
    } else {
      passedOn = releasePlace(tx, row, now, "offer_declined");
      const next = passedOn ? "Er geht an das nächste Kind auf der Warteliste." : sentence(passedOnText(false));
      tellParent(tx, row, "Platz freigegeben", [`du hast den Platz für ${row.childFirstName} freigegeben. ${next}`]);
    }
    return { ok: true, answer, eventId: row.eventId, passedOn };
  });
}

/** Offers that ran out pass their place on (the scheduler calls this every minute). */
export function expireOffers(now = new Date()) {
  return writeTransaction((tx) => {
    const due = tx
      .select({ id: registrations.id, eventId: registrations.eventId })
      .from(registrations)
      .where(and(isNotNull(registrations.offerExpiresAt), lte(registrations.offerExpiresAt, now), eq(registrations.applicationStatus, "open")))
      .orderBy(registrations.offerExpiresAt)
      .all();
    for (const { id, eventId } of due) {
      const row = loadForChange(tx, eventId, id);
      if (!row || stateOf(row) !== "offered") continue;
      const passedOn = releasePlace(tx, row, now, "offer_expired");
      tellParent(tx, row, "Platzangebot abgelaufen", [`das Angebot für ${row.childFirstName} ist ${ranOut(row, passedOn).mail}.`]);
    }
    return due.length;
  });
}
