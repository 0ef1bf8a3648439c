// The enrolment mail reads as paragraphs (mail review: a waiting-only or a free enrolment had two
// blank lines in a row) and ends with a greeting as the leaders' mails do.
import { describe, expect, it } from "vitest";
import { confirmationMail } from "./enrollment-mail.server";

const base = { account: { email: "eva@example.org", firstName: "Eva" }, event: { title: "Zeltlager", dateFrom: "2027-07-01", priceCents: 20000 }, enrolmentId: 7, reference: "LF-7-A1" };
const placed = { firstName: "Anna", lastName: "Muster", waitingListPosition: null, amountCents: 20000 };
const waiting = { firstName: "Ben", lastName: "Muster", waitingListPosition: 1, amountCents: null };

describe("the enrolment mail", () => {
  it.each([
    ["a transfer", [placed, waiting], "transfer", 20000],
    ["a SEPA mandate", [placed], "sepa", 20000],
    ["the waiting list only", [waiting], "transfer", 20000],
    ["a free event", [{ ...placed, amountCents: 0 }], "transfer", 0],
  ] as const)("has no two blank lines in a row and ends with a greeting: %s", (_, created, paymentMethod, priceCents) => {
    const { text } = confirmationMail({ ...base, event: { ...base.event, priceCents }, created: [...created], paymentMethod });
    expect(text).not.toContain("\n\n\n");
    expect(text.trimEnd().endsWith("Viele Grüße\nDein Lagerfeuer-Team")).toBe(true);
  });

  it("asks nothing of a free event: no total, no word of paying later", () => {
    const { text, attachments } = confirmationMail({ ...base, event: { ...base.event, priceCents: 0 }, created: [{ ...placed, amountCents: 0 }, waiting], paymentMethod: "transfer" });
    expect(text).toContain("- Anna Muster: Anmeldung eingegangen – Bestätigung ausstehend\n");
    expect(text).not.toMatch(/Gesamtbetrag|0,00|zahlst|überweise/);
    expect(attachments).toEqual([]);
  });

  it("asks for the children with a place when another waits, and for all children when none does", () => {
    const sibling = { ...placed, firstName: "Clara", amountCents: 18000 };
    const withWaiting = confirmationMail({ ...base, created: [placed, sibling, waiting], paymentMethod: "transfer" }).text;
    expect(withWaiting).toContain("Bitte überweise den Gesamtbetrag in einer Überweisung für die Kinder mit Platz auf dieses Konto:");
    const all = confirmationMail({ ...base, created: [placed, sibling], paymentMethod: "transfer" }).text;
    expect(all).toContain("Bitte überweise den Gesamtbetrag in einer Überweisung für alle Kinder auf dieses Konto:");
  });
});
