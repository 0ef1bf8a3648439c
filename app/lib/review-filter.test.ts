import { describe, expect, it } from "vitest";
import { listSearch, matchesFilter, MAX_SEARCH, matchesSearch, pageOf, PAGE_SIZE, parseListQuery, referenceNote, sectionOf, type ListFilter } from "./review-filter";

const facts = {
  open: { applicationStatus: "open", waitingListPosition: null, offerExpiresAt: null, paid: false },
  openPaid: { applicationStatus: "open", waitingListPosition: null, offerExpiresAt: null, paid: true },
  accepted: { applicationStatus: "accepted", waitingListPosition: null, offerExpiresAt: null, paid: false },
  acceptedPaid: { applicationStatus: "accepted", waitingListPosition: null, offerExpiresAt: null, paid: true },
  waiting: { applicationStatus: "open", waitingListPosition: 1, offerExpiresAt: null, paid: false },
  offered: { applicationStatus: "open", waitingListPosition: 2, offerExpiresAt: new Date(), paid: false },
  rejected: { applicationStatus: "rejected", waitingListPosition: null, offerExpiresAt: null, paid: false },
  cancelled: { applicationStatus: "cancelled", waitingListPosition: null, offerExpiresAt: null, paid: true },
} as const;
type Name = keyof typeof facts;

describe("the list filter", () => {
  const expected: Record<ListFilter, Name[]> = {
    alle: Object.keys(facts) as Name[],
    offen: ["open", "openPaid"],
    bestaetigt: ["accepted", "acceptedPaid"],
    unbezahlt: ["open", "accepted"],
    warteliste: ["waiting", "offered"],
    abgelehnt: ["rejected", "cancelled"],
  };
  for (const [filter, names] of Object.entries(expected) as [ListFilter, Name[]][]) {
    it(`${filter} shows ${names.join(", ")}`, () => {
      const shown = (Object.keys(facts) as Name[]).filter((n) => matchesFilter(facts[n], filter));
      expect(shown).toEqual(names);
    });
  }

  it("sorts each registration into its section", () => {
    expect((Object.keys(facts) as Name[]).map((n) => sectionOf(facts[n]))).toEqual([
      "table", "table", "table", "table", "waiting", "waiting", "rejected", "rejected",
    ]);
  });

  it("reads the GET parameters; an unknown filter is 'alle', the search is trimmed and cut, a bad page is 1", () => {
    expect(parseListQuery(new URLSearchParams("filter=offen&suche=%20 Mia   M%C3%BCller &seite=3"))).toEqual({ filter: "offen", search: "Mia Müller", page: 3 });
    expect(parseListQuery(new URLSearchParams("filter=drop+table"))).toEqual({ filter: "alle", search: "", page: 1 });
    // Room for a pasted bank statement's line (up to 140 characters) with the payer around it.
    expect(parseListQuery(new URLSearchParams(`suche=${"a".repeat(500)}`)).search).toHaveLength(MAX_SEARCH);
    for (const bad of ["0", "-2", "1.5", "x", "1e9"]) expect(parseListQuery(new URLSearchParams(`seite=${bad}`)).page).toBe(1);
  });

  it("writes them back, leaving the defaults out", () => {
    expect(listSearch({ filter: "alle", search: "", page: 1 })).toBe("");
    expect(listSearch({ filter: "warteliste", search: "Jö", page: 2 })).toBe("?filter=warteliste&suche=J%C3%B6&seite=2");
  });

  it("cuts the rows into pages; a page past the end is the last one", () => {
    const rows = Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => i);
    expect(pageOf(rows, 1)).toMatchObject({ page: 1, pageCount: 3 });
    expect(pageOf(rows, 1).rows).toHaveLength(PAGE_SIZE);
    expect(pageOf(rows, 3).rows).toEqual([0, 1, 2, 3, 4].map((i) => 2 * PAGE_SIZE + i));
    expect(pageOf(rows, 9)).toMatchObject({ page: 3, pageCount: 3 });
    expect(pageOf([], 4)).toEqual({ rows: [], page: 1, pageCount: 1 });
  });

  it("finds a name by any of its words, in any case, umlauts too", () => {
    const mia = { firstName: "Mia", lastName: "Özdemir" };
    expect(matchesSearch(mia, "")).toBe(true);
    expect(matchesSearch(mia, "özd")).toBe(true);
    expect(matchesSearch(mia, "ÖZDEMIR mia")).toBe(true);
    expect(matchesSearch(mia, "mia schulz")).toBe(false);
  });

  // Leaders' review: the list's own "Schäfer, Ida", a bank's "Schaefer" and the payer's name on the
  // statement found nobody.
  it("finds a name as the list writes it, as a bank spells its umlauts, and by the account holder", () => {
    const ida = { firstName: "Ida", lastName: "Schäfer", payer: "Andrea Schäfer" };
    for (const search of ["Schäfer, Ida", "Schaefer", "ida schaefer", "SCHAEFER, IDA", "Andrea Schäfer", "andrea schaefer"]) {
      expect(matchesSearch(ida, search), search).toBe(true);
    }
    // All words in the child's name, or all in the account holder's: not mixed.
    expect(matchesSearch(ida, "Andrea Ida")).toBe(false);
    expect(matchesSearch(ida, "Schäfer, Ben")).toBe(false);
    expect(matchesSearch({ firstName: "Jörg", lastName: "Strauß" }, "joerg strauss")).toBe(true);
    expect(matchesSearch({ firstName: "Jörg", lastName: "Strauß" }, "Strauß")).toBe(true);
    // Only separators: no words, no search (review: empty words matched every row by accident).
    expect(matchesSearch({ firstName: "Jörg", lastName: "Strauß" }, " , ;")).toBe(true);
    expect(matchesSearch({ firstName: "Jörg", lastName: "Strauß" }, "Strauß,")).toBe(true);
    expect(matchesSearch({ firstName: "Jörg", lastName: "Strauß" }, "Strauß, Ben")).toBe(false);
  });

  // Matching a bank statement (DECISIONS.md 'One enrolment, one payment'): the transfer's
  // reference finds the enrolment's children, as typed, pasted with the statement's text, or
  // spaced and cased as a bank prints it.
  it("finds an enrolment's children by its transfer reference, and only them", () => {
    const ada = { firstName: "Ada", lastName: "Kurz", reference: "LF-12-A345" };
    const other = { firstName: "Ben", lastName: "Kurz", reference: "LF-12-A3456" };
    for (const search of ["LF-12-A345", "lf-12-a345", "LF 12 A 345", "LF12A345", "Überweisung LF-12-A345 Eva Kurz"]) {
      expect([matchesSearch(ada, search), matchesSearch(other, search)], search).toEqual([true, false]);
    }
    // A reference decides alone: the payer's name beside it is no child's.
    expect(matchesSearch({ firstName: "Eva", lastName: "Kurz", reference: "LF-12-A9" }, "LF-12-A345 Eva Kurz")).toBe(false);
    // Without a reference (or with another event's), names as before.
    expect(matchesSearch({ ...ada, reference: null }, "LF-12-A345")).toBe(false);
    expect(matchesSearch(ada, "LF-13-A345")).toBe(false);
    expect(matchesSearch(ada, "kurz")).toBe(true);
    // The reference at the end of a long line (140 characters, as a SEPA transfer's) is found.
    const line = `${"Teilnahmebeitrag Sommerfreizeit fuer zwei Kinder ".repeat(3).slice(0, 129)} LF-12-A345`;
    expect(matchesSearch(ada, parseListQuery(new URLSearchParams({ suche: line })).search)).toBe(true);
  });

  it("says what a reference searched for, and when it is another event's", () => {
    expect(referenceNote("Mia", 12)).toBeNull();
    expect(referenceNote("Überweisung lf 12 a 345", 12)).toBe("Gesucht nach dem Verwendungszweck LF-12-A345: die Kinder dieser Anmeldung.");
    expect(referenceNote("LF-13-A345", 12)).toBe("Der Verwendungszweck LF-13-A345 gehört zu einer anderen Veranstaltung.");
  });

  // Review: a line cut at the limit shortened its last reference into another, real one.
  it("cuts a long line before its last word, not inside a reference", () => {
    const cut = (line: string) => parseListQuery(new URLSearchParams({ suche: line })).search;
    // The limit falls inside the reference's number: "LF-12-A3456" would be another enrolment.
    const line = `${"Beitrag ".repeat(Math.ceil(MAX_SEARCH / 8)).slice(0, MAX_SEARCH - 12)} LF-12-A3456789`;
    expect(line.slice(0, MAX_SEARCH)).toMatch(/LF-12-A3456$/);
    expect(cut(line).length).toBeLessThanOrEqual(MAX_SEARCH);
    expect(referenceNote(cut(line), 12)).toBeNull();
    // A line within the limit keeps every word; one long word is cut as it is.
    expect(cut(`Beitrag LF-12-A345 ${"x".repeat(100)}`)).toBe(`Beitrag LF-12-A345 ${"x".repeat(100)}`);
    expect(cut("x".repeat(MAX_SEARCH + 50))).toHaveLength(MAX_SEARCH);
  });

  // One transfer for two enrolments (a family that enrolled twice) carries both references.
  it("finds the children of every reference in the line", () => {
    const line = "Freizeit LF-12-A345 und lf 12 a 346, Eva Kurz";
    const rows = [
      { firstName: "Ada", lastName: "Kurz", reference: "LF-12-A345" },
      { firstName: "Ben", lastName: "Kurz", reference: "LF-12-A346" },
      { firstName: "Cem", lastName: "Kurz", reference: "LF-12-A347" },
    ];
    expect(rows.map((r) => matchesSearch(r, line))).toEqual([true, true, false]);
    expect(referenceNote(line, 12)).toBe("Gesucht nach den Verwendungszwecken LF-12-A345 und LF-12-A346: die Kinder dieser Anmeldungen.");
    // The same reference twice is one; three are listed with commas.
    expect(referenceNote("LF-12-A345 LF-12-A345", 12)).toBe("Gesucht nach dem Verwendungszweck LF-12-A345: die Kinder dieser Anmeldung.");
    expect(referenceNote("LF-12-A1 LF-12-A2 LF-12-A3", 12)).toBe(
      "Gesucht nach den Verwendungszwecken LF-12-A1, LF-12-A2 und LF-12-A3: die Kinder dieser Anmeldungen.",
    );
    // Another event's reference beside this event's: both said.
    expect(referenceNote("LF-12-A345 LF-13-A9", 12)).toBe(
      "Gesucht nach dem Verwendungszweck LF-12-A345: die Kinder dieser Anmeldung. Der Verwendungszweck LF-13-A9 gehört zu einer anderen Veranstaltung.",
    );
    expect(referenceNote("LF-13-A9 LF-14-A1", 12)).toBe("Die Verwendungszwecke LF-13-A9 und LF-14-A1 gehören zu anderen Veranstaltungen.");
    // Review: two of one other event belong to one other event.
    expect(referenceNote("LF-13-A9 LF-13-A10", 12)).toBe("Die Verwendungszwecke LF-13-A9 und LF-13-A10 gehören zu einer anderen Veranstaltung.");
    // Review: written together, the second was missed.
    expect(referenceNote("LF-12-A345LF-12-A346", 12)).toBe("Gesucht nach den Verwendungszwecken LF-12-A345 und LF-12-A346: die Kinder dieser Anmeldungen.");
  });
});
