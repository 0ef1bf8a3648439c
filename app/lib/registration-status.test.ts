import { describe, expect, it } from "vitest";
import { applicationStatusWord, isOffered, paymentStatusWord, statusMark } from "./registration-status";

const base = { applicationStatus: "open", paid: false, waitingListPosition: null };

describe("status in words", () => {
  it.each([
    [base, "Anmeldung eingegangen – Bestätigung ausstehend", "pending", "○", "Zahlung ausstehend", "○"],
    [{ ...base, applicationStatus: "accepted", paid: true }, "Bestätigt", "ok", "✓", "Bezahlt", "✓"],
    [{ ...base, applicationStatus: "accepted" }, "Bestätigt", "ok", "✓", "Zahlung ausstehend", "○"],
    [{ ...base, waitingListPosition: 3 }, "Warteliste (Platz 3)", "pending", "○", null, null],
    // After the event has begun no place comes any more (parents' review: a year later it still
    // said 'Warteliste (Platz 1)').
    [{ ...base, waitingListPosition: 1, eventStarted: true }, "Warteliste – kein Platz frei geworden", "bad", "✗", null, null],
    [{ ...base, waitingListPosition: 1, eventStarted: false }, "Warteliste (Platz 1)", "pending", "○", null, null],
    [{ ...base, applicationStatus: "rejected" }, "Abgelehnt", "bad", "✗", null, null],
    [{ ...base, applicationStatus: "cancelled" }, "Storniert", "bad", "✗", null, null],
  ])("%o", (registration, text, tone, mark, payment, paymentMark) => {
    const word = applicationStatusWord(registration);
    expect(word).toMatchObject({ text, tone });
    expect(statusMark(word)).toBe(mark);
    const paid = paymentStatusWord(registration);
    expect(paid?.text ?? null).toBe(payment);
    expect(paid ? statusMark(paid) : null).toBe(paymentMark);
  });
});

describe("an offered place", () => {
  it("says until when to take it", () => {
    const until = new Date("2030-07-01T16:30:00Z"); // 18:30 in Berlin (summer time)
    expect(applicationStatusWord({ applicationStatus: "open", paid: false, waitingListPosition: 2, offerExpiresAt: until })).toEqual({
      text: "Platz frei – bitte bis 01.07.30, 18:30 Uhr annehmen",
      done: false,
      tone: "pending",
    });
    expect(statusMark(applicationStatusWord({ applicationStatus: "open", paid: false, waitingListPosition: 2, offerExpiresAt: until }))).toBe("○");
    expect(isOffered({ applicationStatus: "open", paid: false, waitingListPosition: 2, offerExpiresAt: null })).toBe(false);
  });

  // Leaders' review: the detail page showed the leaders the parent's "bitte … annehmen", which read
  // as a task of their own; the deadline stands in its own line there ("Angebot").
  it("says to the leaders that the place is offered, not what the parent should do", () => {
    const offered = { applicationStatus: "open", paid: false, waitingListPosition: 2, offerExpiresAt: new Date("2030-07-01T16:30:00Z") };
    expect(applicationStatusWord(offered, "leaders")).toEqual({ text: "Warteliste – Platz angeboten", done: false, tone: "pending" });
    expect(applicationStatusWord({ ...base, waitingListPosition: 3 }, "leaders").text).toBe("Warteliste (Platz 3)");
  });
});
