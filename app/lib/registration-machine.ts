// The states of a registration and the decisions that move it (spec part 2 §4, DECISIONS.md
// 'Decisions and reasons', 'Waiting list moves by itself'). Pure: the model asks it inside its
// write transaction, the pages ask it which buttons to show.
import type { ApplicationStatus } from "./enums";

export type RegistrationState =
  /** Holds a place, waits for the leaders' decision. */
  | "open"
  /** On the waiting list, no place. */
  | "waiting"
  /** On the waiting list with a place held for it until the offer runs out. */
  | "offered"
  | "accepted"
  | "rejected"
  /** Storniert: by the leaders, or a place offered and not taken. */
  | "cancelled";

export type RegistrationFacts = {
  applicationStatus: ApplicationStatus;
  waitingListPosition: number | null;
  offerExpiresAt: Date | number | null;
  paid: boolean;
};

export function stateOf(r: RegistrationFacts): RegistrationState {
  if (r.applicationStatus !== "open") return r.applicationStatus;
  if (r.waitingListPosition === null) return "open";
  return r.offerExpiresAt === null ? "waiting" : "offered";
}

/** Does it take one of the event's places (open and accepted ones, and open offers)? */
export function holdsPlace(state: RegistrationState) {
  return state === "open" || state === "accepted" || state === "offered";
}

/** Holds a place outside the waiting list (open or accepted): paid for now; an offered place is
 * paid once it is taken. Asks only the two facts that decide it, so a page's serialized rows fit. */
export function paysNow(r: Pick<RegistrationFacts, "applicationStatus" | "waitingListPosition">) {
  return r.applicationStatus === "accepted" || (r.applicationStatus === "open" && r.waitingListPosition === null);
}

/** Holds its place and still owes its amount: not paid, and not free (amount 0; an amount not
 * known, from before amounts were kept, is owed). */
export function owes(r: RegistrationFacts & { amountCents?: number | null }) {
  return paysNow(r) && !r.paid && r.amountCents !== 0;
}

/** What the leaders decide. */
export const DECISIONS = [
  "accept",
  "reject",
  "cancel",
  "revoke-rejection",
  "move-up",
  "confirm-payment",
  "revoke-payment",
] as const;
export type Decision = (typeof DECISIONS)[number];

/** Decisions that need a reason ('Begründung ist erforderlich'). */
export const REASON_REQUIRED: readonly Decision[] = ["reject", "cancel"];

const FROM: Record<Exclude<Decision, "confirm-payment" | "revoke-payment">, readonly RegistrationState[]> = {
  accept: ["open"],
  reject: ["open", "waiting", "offered"],
  cancel: ["accepted"],
  "revoke-rejection": ["rejected"],
  "move-up": ["waiting", "offered"],
};

/** Where a decision leads; what a repeated decision finds (then nothing changes). */
export const TARGET: Record<Exclude<Decision, "confirm-payment" | "revoke-payment">, RegistrationState> = {
  accept: "accepted",
  reject: "rejected",
  cancel: "cancelled",
  "revoke-rejection": "open",
  "move-up": "open",
};

/** A registration with what its place costs, where known (0: free, nothing to confirm). */
type WithAmount = RegistrationFacts & { amountCents?: number | null };

export function isAllowed(decision: Decision, r: WithAmount) {
  const state = stateOf(r);
  if (decision === "confirm-payment") return owes(r);
  if (decision === "revoke-payment") return r.paid;
  return FROM[decision].includes(state);
}

/** The decision was made before (a repeated POST): it changes nothing more. */
export function isAlreadyDone(decision: Decision, r: RegistrationFacts) {
  if (decision === "confirm-payment") return r.paid;
  if (decision === "revoke-payment") return !r.paid;
  // A revoked rejection may have gone to the waiting list when no place was free.
  if (decision === "revoke-rejection") return stateOf(r) === "open" || stateOf(r) === "waiting";
  return stateOf(r) === TARGET[decision];
}

/** The buttons a leader sees for a registration. */
export function allowedDecisions(r: WithAmount): Decision[] {
  return DECISIONS.filter((d) => isAllowed(d, r));
}

/** What the parent does with an offered place. */
export type OfferAnswer = "accept" | "decline";

export function canAnswerOffer(r: RegistrationFacts, now: Date) {
  if (stateOf(r) !== "offered") return false;
  const expires = r.offerExpiresAt instanceof Date ? r.offerExpiresAt.getTime() : Number(r.offerExpiresAt);
  return expires > now.getTime();
}

/** Refusals of the machine, in German, by what the registration is now. */
export function refusalText(decision: Decision, r: WithAmount) {
  const state = stateOf(r);
  if (decision === "confirm-payment") {
    if (!paysNow(r)) return "Eine Zahlung kann nur für eine Anmeldung mit Platz bestätigt werden.";
    return r.amountCents === 0 ? "Diese Anmeldung kostet nichts: Es gibt keine Zahlung zu bestätigen." : "Die Zahlung ist bereits bestätigt.";
  }
  if (decision === "accept" && (state === "waiting" || state === "offered")) {
    return "Diese Anmeldung steht auf der Warteliste. Bitte zuerst nachrücken lassen.";
  }
  const words: Record<RegistrationState, string> = {
    open: "noch offen",
    waiting: "auf der Warteliste",
    offered: "auf der Warteliste mit einem angebotenen Platz",
    accepted: "bestätigt",
    rejected: "abgelehnt",
    cancelled: "storniert",
  };
  return `Das geht nicht: Die Anmeldung ist ${words[state]}.`;
}

/** The longest reason or note of a decision (the step's field and the action). */
export const REASON_MAX = 1000;

/** The field of the 'Nachrücken' step that asks for one more place in a full camp. */
export const ADD_PLACE = "zusatzplatz";

/**
 * The event's places after 'Nachrücken' with one more place: one above what is set or taken,
 * whichever is more. The step says it before the POST; the action sets it.
 */
export function placesWithOneMore(capacity: number, taken: number) {
  return Math.max(capacity, taken) + 1;
}

/** Why a waiting child cannot move up without one more place: said by the action and the step. */
export const NO_FREE_PLACE = "Kein Platz frei: Alle Plätze sind vergeben oder der Warteliste angeboten.";
