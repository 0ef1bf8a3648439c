import { describe, expect, it } from "vitest";
import { applicationStatusWord, paymentStatusWord } from "./registration-status";

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
