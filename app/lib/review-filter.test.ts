import { describe, expect, it } from "vitest";
import { listSearch, matchesFilter, matchesSearch, parseListQuery, sectionOf, type ListFilter } from "./review-filter";

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

  it("reads the GET parameters; an unknown filter is 'alle', the search is trimmed and cut", () => {
    expect(parseListQuery(new URLSearchParams("filter=offen&suche=%20 Mia   M%C3%BCller "))).toEqual({ filter: "offen", search: "Mia Müller" });
    expect(parseListQuery(new URLSearchParams("filter=drop+table"))).toEqual({ filter: "alle", search: "" });
    expect(parseListQuery(new URLSearchParams(`suche=${"a".repeat(500)}`)).search).toHaveLength(100);
  });

  it("writes them back, leaving the defaults out", () => {
    expect(listSearch({ filter: "alle", search: "" })).toBe("");
    expect(listSearch({ filter: "warteliste", search: "Jö" })).toBe("?filter=warteliste&suche=J%C3%B6");
  });

  it("finds a name by any of its words, in any case, umlauts too", () => {
    const mia = { firstName: "Mia", lastName: "Özdemir" };
    expect(matchesSearch(mia, "")).toBe(true);
    expect(matchesSearch(mia, "özd")).toBe(true);
    expect(matchesSearch(mia, "ÖZDEMIR mia")).toBe(true);
    expect(matchesSearch(mia, "mia schulz")).toBe(false);
  });
});
