import { describe, expect, it } from "vitest";
import {
  allowedDecisions,
  canAnswerOffer,
  DECISIONS,
  holdsPlace,
  isAllowed,
  paysNow,
  isAlreadyDone,
  refusalText,
  stateOf,
  type Decision,
  type RegistrationFacts,
  type RegistrationState,
} from "./registration-machine";

const soon = new Date("2030-01-02T00:00:00Z");
const FACTS: Record<RegistrationState, RegistrationFacts> = {
  open: { applicationStatus: "open", waitingListPosition: null, offerExpiresAt: null, paid: false },
  waiting: { applicationStatus: "open", waitingListPosition: 3, offerExpiresAt: null, paid: false },
  offered: { applicationStatus: "open", waitingListPosition: 1, offerExpiresAt: soon, paid: false },
  accepted: { applicationStatus: "accepted", waitingListPosition: null, offerExpiresAt: null, paid: false },
  rejected: { applicationStatus: "rejected", waitingListPosition: null, offerExpiresAt: null, paid: false },
  cancelled: { applicationStatus: "cancelled", waitingListPosition: null, offerExpiresAt: null, paid: false },
};

// Every state × every decision: exactly the transitions of spec part 2 §4 and DECISIONS.md.
const ALLOWED: Record<RegistrationState, Decision[]> = {
  open: ["accept", "reject", "confirm-payment"],
  waiting: ["reject", "move-up"],
  offered: ["reject", "move-up"],
  accepted: ["cancel", "confirm-payment"],
  rejected: ["revoke-rejection"],
  cancelled: [],
};

describe("the registration state machine", () => {
  for (const state of Object.keys(FACTS) as RegistrationState[]) {
    it(`derives ${state}`, () => expect(stateOf(FACTS[state])).toBe(state));
    for (const decision of DECISIONS) {
      const expected = ALLOWED[state].includes(decision);
      it(`${expected ? "allows" : "refuses"} ${decision} on ${state}`, () => {
        expect(isAllowed(decision, FACTS[state])).toBe(expected);
      });
    }
  }

  it("payments: revoke only when paid, confirm only unpaid place-holders", () => {
    const paidAccepted = { ...FACTS.accepted, paid: true };
    expect(allowedDecisions(paidAccepted)).toEqual(["cancel", "revoke-payment"]);
    expect(isAllowed("confirm-payment", { ...FACTS.waiting })).toBe(false);
    expect(isAllowed("revoke-payment", { ...FACTS.rejected, paid: true })).toBe(true);
  });

  it("has no payment to confirm for a free place, so none to take back (helper review: a free camp's family was thanked for paying)", () => {
    expect(isAllowed("confirm-payment", { ...FACTS.accepted, amountCents: 0 })).toBe(false);
    expect(allowedDecisions({ ...FACTS.open, amountCents: 0 })).toEqual(["accept", "reject"]);
    expect(refusalText("confirm-payment", { ...FACTS.accepted, amountCents: 0 })).toBe("Diese Anmeldung kostet nichts: Es gibt keine Zahlung zu bestätigen.");
    // An amount not known (from before amounts were kept) is owed, as before.
    expect(isAllowed("confirm-payment", { ...FACTS.accepted, amountCents: null })).toBe(true);
  });

  it("knows a repeated decision", () => {
    expect(isAlreadyDone("accept", FACTS.accepted)).toBe(true);
    expect(isAlreadyDone("accept", FACTS.open)).toBe(false);
    expect(isAlreadyDone("reject", FACTS.rejected)).toBe(true);
    expect(isAlreadyDone("cancel", FACTS.cancelled)).toBe(true);
    expect(isAlreadyDone("confirm-payment", { ...FACTS.open, paid: true })).toBe(true);
    expect(isAlreadyDone("revoke-payment", FACTS.open)).toBe(true);
    expect(isAlreadyDone("move-up", FACTS.open)).toBe(true);
    expect(isAlreadyDone("revoke-rejection", FACTS.waiting)).toBe(true);
  });

  it("places are held by open and accepted registrations and by open offers", () => {
    expect((Object.keys(FACTS) as RegistrationState[]).filter(holdsPlace)).toEqual(["open", "offered", "accepted"]);
  });

  it("is paid for now when it holds a place outside the waiting list (open or accepted)", () => {
    expect((Object.keys(FACTS) as RegistrationState[]).filter((state) => paysNow(FACTS[state]))).toEqual(["open", "accepted"]);
  });

  it("an offer can be answered only while it runs", () => {
    expect(canAnswerOffer(FACTS.offered, new Date("2030-01-01T23:59:59Z"))).toBe(true);
    expect(canAnswerOffer(FACTS.offered, soon)).toBe(false);
    expect(canAnswerOffer(FACTS.waiting, new Date("2029-01-01"))).toBe(false);
  });
});
