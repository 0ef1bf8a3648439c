import { describe, expect, it } from "vitest";
import { applicationStatusWord, isOffered, paymentStatusWord } from "./registration-status";

const base = { applicationStatus: "open", paid: false, waitingListPosition: null };

describe("status in words", () => {
  it.each([
    [base, "Anmeldung eingegangen – Bestätigung ausstehend", "pending", "Zahlung ausstehend"],
    [{ ...base, applicationStatus: "accepted", paid: true }, "Bestätigt", "ok", "Bezahlt"],
    [{ ...base, waitingListPosition: 3 }, "Warteliste (Platz 3)", "pending", null],
    [{ ...base, applicationStatus: "rejected" }, "Abgelehnt", "bad", null],
    [{ ...base, applicationStatus: "cancelled" }, "Storniert", "bad", null],
  ])("%o", (registration, text, tone, payment) => {
    expect(applicationStatusWord(registration)).toMatchObject({ text, tone });
    expect(paymentStatusWord(registration)?.text ?? null).toBe(payment);
  });
});

describe("an offered place", () => {
  it("says until when to take it", () => {
    const until = new Date("2030-07-01T16:30:00Z"); // 18:30 in Berlin (summer time)
    expect(applicationStatusWord({ applicationStatus: "open", paid: false, waitingListPosition: 2, offerExpiresAt: until })).toEqual({
      text: "Platz frei – bitte bis 01.07.2030, 18:30 Uhr annehmen",
      done: false,
      tone: "pending",
    });
    expect(isOffered({ applicationStatus: "open", paid: false, waitingListPosition: 2, offerExpiresAt: null })).toBe(false);
  });
});
