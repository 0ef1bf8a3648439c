import { describe, expect, it } from "vitest";
import { sortMyRegistrations } from "./registration-order";
import { centsToInput, formatEuro, parsePriceCents, plansMoved, tileButtons } from "./event-rules";

describe("tile buttons", () => {
  const upcoming = { past: false, requiresApplication: true };
  const past = { past: true, requiresApplication: true };
  const open = { past: false, requiresApplication: false };
  const visitor = { signedIn: false, admin: false };
  const parent = { signedIn: true, admin: false };
  const admin = { signedIn: true, admin: true };

  it("shows a visitor only Ansehen", () => {
    expect(tileButtons(upcoming, visitor)).toEqual({ view: true, edit: false, enroll: false });
  });
  it("offers Anmeldung to signed-in users on upcoming events that need registration", () => {
    expect(tileButtons(upcoming, parent)).toEqual({ view: true, edit: false, enroll: true });
    expect(tileButtons(open, parent).enroll).toBe(false);
    expect(tileButtons(past, parent).enroll).toBe(false);
  });
  it("offers Bearbeiten to admins on upcoming events only", () => {
    expect(tileButtons(upcoming, admin)).toEqual({ view: true, edit: true, enroll: true });
    expect(tileButtons(past, admin)).toEqual({ view: true, edit: false, enroll: false });
  });
});

describe("the order of my registrations", () => {
  it("puts confirmed and paid first, then confirmed, then paid, then neither", () => {
    const rows = [
      { firstName: "D", lastName: "A", applicationStatus: "open", paid: false },
      { firstName: "C", lastName: "A", applicationStatus: "open", paid: true },
      { firstName: "B", lastName: "A", applicationStatus: "accepted", paid: false },
      { firstName: "A", lastName: "A", applicationStatus: "accepted", paid: true },
    ];
    expect(sortMyRegistrations(rows).map((r) => r.firstName)).toEqual(["A", "B", "C", "D"]);
  });
});

describe("prices", () => {
  it.each([
    ["", 0],
    ["0", 0],
    ["249", 24900],
    ["12,5", 1250],
    ["12,50", 1250],
    ["12.50", 1250],
    ["999999", 99999900],
  ])("reads %j as %i cents", (input, cents) => {
    expect(parsePriceCents(input)).toBe(cents);
  });
  it.each(["-5", "12,505", "abc", "1234567", "12,"])("refuses %j", (input) => {
    expect(parsePriceCents(input)).toBeNull();
  });
  it("shows euros the German way", () => {
    expect(formatEuro(24900).replace(/\s/g, " ")).toBe("249,00 €");
    expect(centsToInput(1250)).toBe("12,50");
    expect(centsToInput(24900)).toBe("249");
  });
});

describe("plansMoved", () => {
  const plans = { dateFrom: "2027-07-01", timeFrom: "09:30", dateTo: null, timeTo: null, location: "Plön" };
  it("names start, end and place as changed, in the event page's order", () => {
    expect(plansMoved(plans, { ...plans })).toEqual([]);
    expect(plansMoved(plans, { ...plans, location: "Kiel", timeFrom: "10:00" })).toEqual(["Beginn", "Ort"]);
    expect(plansMoved(plans, { ...plans, dateTo: "2027-07-08" })).toEqual(["Ende"]);
    expect(plansMoved({ ...plans, dateTo: "2027-07-08", timeTo: "12:00" }, { ...plans, dateTo: "2027-07-08", timeTo: null })).toEqual(["Ende"]);
  });
});
