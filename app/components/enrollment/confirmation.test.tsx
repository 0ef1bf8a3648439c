// The confirmation page says what comes next for the children it shows (screens' review: a page of
// children only on the waiting list promised the leaders' check; a waiting child of an event that
// had begun still read 'Warteliste (Platz 1) … Wir melden uns dann bei dir').
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Confirmation } from "./confirmation";

const bank = { accountHolder: "Jugendverband e.V.", iban: "DE02120300000000202051", bic: "BYLADEM1001", name: "DKB" };
type Child = { applicationStatus: string; waitingListPosition: number | null; paid?: boolean; eventStarted?: boolean };

function page(children: Child[], { offerHours = 48 } = {}) {
  const enrolment = {
    id: 1,
    reference: "FZ-1-1",
    paymentMethod: "transfer" as const,
    createdAt: "2026-11-20T10:00:00.000Z",
    eventId: 1,
    title: "Zeltlager",
    dateFrom: "2027-07-01",
    priceCents: 0,
    siblingDiscountCents: 0,
    offerHours,
    totalCents: 0,
    paid: false,
    children: children.map((c, i) => ({ id: i + 1, firstName: `Kind${i}`, lastName: "Muster", amountCents: 0, paid: false, eventStarted: false, offerExpiresAt: null, ...c })),
  };
  const html = renderToString(<Confirmation enrolment={enrolment as never} bank={bank} qr={null} />);
  return html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"');
}

describe("the confirmation's next step", () => {
  it("a placed child waits for the leaders' check", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null }]);
    expect(text).toContain("Die Leitung prüft die Anmeldung und bestätigt sie dir.");
    expect(text).not.toContain("Sobald ein Platz frei wird");
  });

  it("children only on the waiting list wait for a place, and the page says how long an offer holds", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: 3 }], { offerHours: 72 });
    expect(text).not.toContain("Die Leitung prüft");
    expect(text).toContain("Sobald ein Platz frei wird, bekommst du eine E-Mail; dann hast du 72 Stunden Zeit, ihn anzunehmen.");
  });

  it("a waiting child of an event that has begun gets no place any more, and nothing is promised", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: 1, eventStarted: true }]);
    expect(text).toContain("Warteliste – kein Platz frei geworden");
    expect(text).not.toContain("Wir melden uns");
    expect(text).not.toContain("Sobald ein Platz frei wird");
    expect(text).not.toContain("Die Leitung prüft");
  });

  it("a decided enrolment promises no check", () => {
    const text = page([{ applicationStatus: "accepted", waitingListPosition: null }]);
    expect(text).not.toContain("Die Leitung prüft");
  });
});
