// The confirmation page says what comes next for the children it shows (screens' review: a page of
// children only on the waiting list promised the leaders' check; a waiting child of an event that
// had begun still read 'Warteliste (Platz 1) … Wir melden uns dann bei dir').
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Confirmation } from "./confirmation";

const bank = { accountHolder: "Jugendverband e.V.", iban: "DE02120300000000202051", bic: "BYLADEM1001", name: "DKB", creditorId: "DE98ZZZ09999999999" };
type Child = { applicationStatus: string; waitingListPosition: number | null; paid?: boolean; eventStarted?: boolean; amountCents?: number | null; offerExpiresAt?: string | null };

type Part = { names: string[]; cents: number; alone: boolean };

function page(
  children: Child[],
  { offerHours = 48, totalCents = 0, paidCents = 0, openParts = undefined as Part[] | undefined, paymentMethod = "transfer" as "transfer" | "sepa", mandateReference = null as string | null, debitAccount = null as string | null, priceCents = 20000 } = {},
) {
  const enrolment = {
    id: 1,
    reference: "FZ-1-1",
    paymentMethod,
    mandateReference,
    debitAccount,
    createdAt: "2026-11-20T10:00:00.000Z",
    eventId: 1,
    title: "Zeltlager",
    dateFrom: "2027-07-01",
    priceCents,
    siblingDiscountCents: 0,
    offerHours,
    totalCents,
    paidCents,
    openCents: totalCents - paidCents,
    paid: totalCents > 0 && paidCents === totalCents,
    children: children.map((c, i) => ({ id: i + 1, firstName: `Kind${i}`, lastName: "Muster", amountCents: 0, paid: false, eventStarted: false, offerExpiresAt: null, ...c })),
    openParts: openParts ?? (totalCents > paidCents ? [{ names: ["Kind0 Muster"], cents: totalCents - paidCents, alone: false }] : []),
  };
  const html = renderToString(<Confirmation enrolment={enrolment as never} bank={bank} codes={[]} />);
  return html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"');
}

describe("the confirmation's next step", () => {
  it("a placed child waits for the leaders' check", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null }]);
    expect(text).toContain("Die Leitung prüft die Anmeldung; ihre Entscheidung bekommst du per E-Mail.");
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

describe("the confirmation's payment", () => {
  it("asks for the one total in one transfer while nothing is paid", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 20000 }, { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 }], { totalCents: 38000 });
    expect(text).toContain("Bitte überweise den Gesamtbetrag für alle Kinder in einer Überweisung:");
    expect(text).toMatch(/Betrag380,00\s€/);
    expect(text).not.toContain("Noch offen");
  });

  it("names only the children with a place: not one on the waiting list, nor a rejected one (and shows no amount for it)", () => {
    const withWaiting = page(
      [{ applicationStatus: "open", waitingListPosition: null, amountCents: 20000 }, { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 }, { applicationStatus: "open", waitingListPosition: 2, amountCents: 18000 }],
      { totalCents: 38000 },
    );
    expect(withWaiting).toContain("Bitte überweise den Gesamtbetrag für die Kinder mit Platz in einer Überweisung:");
    const rejected = page(
      [{ applicationStatus: "rejected", waitingListPosition: null, amountCents: 20000 }, { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 }],
      { totalCents: 18000 },
    );
    expect(rejected).toContain("Bitte überweise den Gesamtbetrag in einer Überweisung:");
    expect(rejected).not.toMatch(/200,00/);
  });

  it("says why the total is smaller than the enrolment's mail asked for: a rejected or cancelled child that owed pays nothing", () => {
    const text = page(
      [
        { applicationStatus: "open", waitingListPosition: null, amountCents: 20000 },
        { applicationStatus: "rejected", waitingListPosition: null, amountCents: 18000 },
        { applicationStatus: "cancelled", waitingListPosition: null, amountCents: 18000 },
        { applicationStatus: "cancelled", waitingListPosition: null, amountCents: null },
        { applicationStatus: "cancelled", waitingListPosition: null, amountCents: 18000, paid: true },
      ],
      { totalCents: 20000 },
    );
    expect(text).toMatch(/Gesamtbetrag: 200,00\s€Ohne Kind1 Muster und Kind2 Muster: Für abgelehnte und stornierte Anmeldungen ist nichts zu zahlen\./);
    // After what is paid and open, which "Davon" refers to; a mandate's words for a debit.
    const sepa = page(
      [
        { applicationStatus: "accepted", waitingListPosition: null, amountCents: 20000, paid: true },
        { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 },
        { applicationStatus: "rejected", waitingListPosition: null, amountCents: 18000 },
      ],
      { totalCents: 38000, paidCents: 20000, paymentMethod: "sepa" },
    );
    expect(sepa).toMatch(/Gesamtbetrag: 380,00\s€Davon bezahlt: 200,00\s€\. Noch offen: 180,00\s€Ohne Kind2 Muster: Für abgelehnte und stornierte Anmeldungen wird nichts eingezogen\./);
    // Nothing to say when every child still pays, or only a waiting one (never asked for) left.
    const waitingLeft = page(
      [
        { applicationStatus: "open", waitingListPosition: null, amountCents: 20000 },
        { applicationStatus: "cancelled", waitingListPosition: null, amountCents: null },
      ],
      { totalCents: 20000 },
    );
    expect(waitingLeft).not.toContain("Ohne ");
  });

  it("asks only for what is open once a child is paid for (a child that got its place later)", () => {
    const text = page([{ applicationStatus: "accepted", waitingListPosition: null, amountCents: 20000, paid: true }, { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 }], { totalCents: 38000, paidCents: 20000 });
    expect(text).toMatch(/Gesamtbetrag: 380,00\s€/);
    expect(text).toMatch(/Davon bezahlt: 200,00\s€\. Noch offen: 180,00\s€/);
    expect(text).toContain("Bitte überweise den noch offenen Betrag:");
    expect(text).toMatch(/Betrag180,00\s€/);
    expect(text).not.toContain("Gesamtbetrag für alle Kinder");
  });

  it("says that a transfer shows as paid once the leaders have booked it, so no one pays twice", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 20000 }], { totalCents: 20000 });
    expect(text).toContain("Schon überwiesen? Dann musst du nichts weiter tun. Sobald die Leitung deine Zahlung verbucht hat, steht sie hier als bezahlt, und du bekommst eine E-Mail.");
  });

  it("asks for a child whose own mail asked for its amount in a transfer of its own, as that mail did", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 20000 }, { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 }], {
      totalCents: 38000,
      openParts: [
        { names: ["Anna Muster"], cents: 20000, alone: false },
        { names: ["Ben Muster"], cents: 18000, alone: true },
      ],
    });
    expect(text).toContain("Bitte überweise den noch offenen Betrag in 2 Überweisungen, wie wir sie dir per E-Mail genannt haben, jede mit diesem Konto und Verwendungszweck:");
    expect(text).toMatch(/1\. Überweisung: 200,00\s€Für Anna Muster \(mit der Anmeldung angefragt\)/);
    expect(text).toMatch(/2\. Überweisung: 180,00\s€Für Ben Muster \(einzeln per E-Mail angefragt\)/);
    expect(text).not.toContain("in einer Überweisung");
    expect(text).not.toMatch(/Betrag380/);
    expect(text).toContain("Eine davon schon überwiesen?");
  });

  it("a direct debit names who collects it, the creditor identifier and the mandate's reference", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 20000 }], {
      totalCents: 20000,
      paymentMethod: "sepa",
      mandateReference: "LF-1-M7",
      debitAccount: "DE02 … 2051",
    });
    expect(text).toContain("Der Gesamtbetrag wird einmal per SEPA-Lastschrift eingezogen.");
    // From which account (parents' review: the page did not say), shortened.
    expect(text).toContain("Von deinem KontoDE02 … 2051ZahlungsempfängerJugendverband e.V.Gläubiger-IdentifikationsnummerDE98ZZZ09999999999MandatsreferenzLF-1-M7");
    expect(text).not.toContain("überweise");
  });

  it("a debit announced for one child by its own mail is named apart, not as one debit of the total", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 20000 }, { applicationStatus: "open", waitingListPosition: null, amountCents: 18000 }], {
      totalCents: 38000,
      paymentMethod: "sepa",
      openParts: [
        { names: ["Anna Muster"], cents: 20000, alone: false },
        { names: ["Ben Muster"], cents: 18000, alone: true },
      ],
    });
    expect(text).not.toContain("einmal per SEPA-Lastschrift");
    expect(text).toContain("Der noch offene Betrag wird per SEPA-Lastschrift eingezogen, in den Beträgen, die wir dir per E-Mail angekündigt haben:");
    expect(text).toMatch(/200,00\s€ für Anna Muster \(mit der Anmeldung angekündigt\)/);
    expect(text).toMatch(/180,00\s€ für Ben Muster \(einzeln per E-Mail angekündigt\)/);
  });

  it("a free event asks for nothing: no total, no payment state, no word of paying later", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 0 }, { applicationStatus: "open", waitingListPosition: 2, amountCents: null }], { priceCents: 0 });
    expect(text).not.toMatch(/Gesamtbetrag|Zahlung ausstehend|0,00|zahlst|überweise/);
  });

  it("a free event paid by SEPA mandate announces no debit (helper review)", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: null, amountCents: 0 }], { priceCents: 0, paymentMethod: "sepa", mandateReference: "LF-1-M7" });
    expect(text).not.toMatch(/Lastschrift|Gläubiger|Mandatsreferenz|Gesamtbetrag/);
  });

  it("a child with an open offer is not told to wait for a place; it is shown where to take it", () => {
    const text = page([{ applicationStatus: "open", waitingListPosition: 1, offerExpiresAt: "2027-06-01T10:00:00.000Z" } as Child]);
    expect(text).not.toContain("Sobald ein Platz frei wird");
    expect(text).toMatch(/Platz annehmen.*Platz freigeben/);
  });

  it("asks for nothing once everything is paid", () => {
    const text = page([{ applicationStatus: "accepted", waitingListPosition: null, amountCents: 20000, paid: true }], { totalCents: 20000, paidCents: 20000 });
    expect(text).toContain("Die Zahlung ist eingegangen. Vielen Dank!");
    expect(text).not.toContain("überweise");
  });
});
