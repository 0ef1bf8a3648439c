import { describe, expect, it } from "vitest";
import { berlinToInstant, berlinToday, formatDate, formatIsoDate, formatTime, isIsoDate, isoDateFromTyped, isoTimeFromTyped, isTime } from "./dates";

describe("berlinToInstant", () => {
  it("uses CET in winter and CEST in summer", () => {
    expect(berlinToInstant("2026-01-15", "10:00").toISOString()).toBe("2026-01-15T09:00:00.000Z");
    expect(berlinToInstant("2026-07-15", "10:00").toISOString()).toBe("2026-07-15T08:00:00.000Z");
  });

  it("handles the spring change (29 March 2026, 02:00 → 03:00)", () => {
    expect(berlinToInstant("2026-03-29", "01:59").toISOString()).toBe("2026-03-29T00:59:00.000Z");
    // 02:30 does not exist that night: it moves forward by the gap, to 03:30 CEST.
    expect(berlinToInstant("2026-03-29", "02:30").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(berlinToInstant("2026-03-29", "03:00").toISOString()).toBe("2026-03-29T01:00:00.000Z");
  });

  it("handles the autumn change (25 October 2026, 03:00 → 02:00)", () => {
    expect(berlinToInstant("2026-10-25", "01:30").toISOString()).toBe("2026-10-24T23:30:00.000Z");
    // 02:30 happens twice: the first one (still CEST) counts.
    expect(berlinToInstant("2026-10-25", "02:30").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(berlinToInstant("2026-10-25", "03:30").toISOString()).toBe("2026-10-25T02:30:00.000Z");
  });

  it("refuses impossible dates and times", () => {
    expect(() => berlinToInstant("2026-02-30", "10:00")).toThrow(RangeError);
    expect(() => berlinToInstant("2026-01-01", "24:00")).toThrow(RangeError);
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
  });

  it("refuses a year no date of the app has: a mistyped '215' was stored as 0215 and shown as '15' (an attacker's probe)", () => {
    for (const date of ["0100-01-01", "0215-01-05", "1899-12-31", "2200-01-01", "9999-12-31"]) expect(isIsoDate(date), date).toBe(false);
    for (const date of ["1900-01-01", "1950-05-01", "2199-12-31"]) expect(isIsoDate(date), date).toBe(true);
    expect(isoDateFromTyped("5.1.0215")).toBe("5.1.0215");
    // A date stored before the years were checked is still read (the calendar feeds read them all).
    expect(berlinToInstant("0215-01-05", "10:00").getUTCFullYear()).toBe(215);
  });
});

describe("formatting in de-DE, Europe/Berlin", () => {
  it("shows day, month and a two-digit year (spec part 2 §9: dd.mm.yy) and 24-hour times with 'Uhr'", () => {
    expect(formatIsoDate("2026-07-05")).toBe("05.07.26");
    expect(formatDate(new Date("2026-07-04T22:30:00Z"))).toBe("05.07.26");
    expect(formatTime(new Date("2026-07-04T22:30:00Z"))).toBe("00:30 Uhr");
    expect(formatTime(new Date("2026-01-04T22:30:00Z"))).toBe("23:30 Uhr");
  });

  it("knows Berlin's today even when UTC is still on yesterday", () => {
    expect(berlinToday(new Date("2026-06-30T22:30:00Z"))).toBe("2026-07-01");
  });

  it("turns to the next day at Berlin's midnight, also when asked again within the same minute", () => {
    // Summer (UTC+2) and winter (UTC+1): the last millisecond of a day, then the first of the next.
    for (const [before, after, day, next] of [
      ["2026-06-30T21:59:59.999Z", "2026-06-30T22:00:00.000Z", "2026-06-30", "2026-07-01"],
      ["2026-12-31T22:59:59.999Z", "2026-12-31T23:00:00.000Z", "2026-12-31", "2027-01-01"],
    ]) {
      expect(berlinToday(new Date(before))).toBe(day);
      expect(berlinToday(Date.parse(before) - 30_000)).toBe(day);
      expect(berlinToday(new Date(after))).toBe(next);
      expect(berlinToday(Date.parse(after) + 59_999)).toBe(next);
      expect(berlinToday(new Date(before))).toBe(day);
    }
  });
});

// A browser without a date picker (Opera Mini on a weak connection) shows a plain text field, where
// people type the date as they write it.
describe("isoDateFromTyped", () => {
  it("reads a date typed the German way as the date field's ISO value", () => {
    expect(isoDateFromTyped("01.05.2015")).toBe("2015-05-01");
    expect(isoDateFromTyped("1.5.2015")).toBe("2015-05-01");
    expect(isoDateFromTyped(" 24. 12. 2016 ")).toBe("2016-12-24");
  });

  it("reads a two-digit year as the app prints one ('01.07.27'): from 79 years ago to twenty years ahead", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    expect(isoDateFromTyped("1.5.27", now)).toBe("2027-05-01");
    expect(isoDateFromTyped("1.5.15", now)).toBe("2015-05-01");
    expect(isoDateFromTyped("01.05.00", now)).toBe("2000-05-01");
    expect(isoDateFromTyped("1.5.46", now)).toBe("2046-05-01");
    expect(isoDateFromTyped("1.5.47", now)).toBe("1947-05-01");
    expect(isoDateFromTyped("30.02.15", now)).toBe("30.02.15");
    // Late in a century the next one's early years are ahead.
    expect(isoDateFromTyped("1.5.05", new Date("2090-01-01T12:00:00Z"))).toBe("2105-05-01");
    expect(isoDateFromTyped("1.5.95", new Date("2090-01-01T12:00:00Z"))).toBe("2095-05-01");
  });

  it("leaves an ISO date, an empty field and anything else as it came (the schema says what is wrong)", () => {
    for (const value of ["2015-05-01", "", "1.5.215", "32.13.2015x", "Mai 2015", "1.5.2015.3"]) expect(isoDateFromTyped(value)).toBe(value);
    // Not a day of the calendar: left as typed, so that the form shows it back as the person wrote
    // it, next to the schema's message (not as "2015-02-30").
    expect(isoDateFromTyped("30.02.2015")).toBe("30.02.2015");
    expect(isoDateFromTyped("31.4.2016")).toBe("31.4.2016");
    expect(isIsoDate(isoDateFromTyped("30.02.2015"))).toBe(false);
  });
});

// The same browsers show a time field as text, where people write a time as they say it.
describe("isoTimeFromTyped", () => {
  it("reads a time typed the German way as the time field's value", () => {
    expect(isoTimeFromTyped("10.00")).toBe("10:00");
    expect(isoTimeFromTyped("9:30")).toBe("09:30");
    expect(isoTimeFromTyped("9.30 Uhr")).toBe("09:30");
    expect(isoTimeFromTyped(" 18 Uhr ")).toBe("18:00");
    expect(isoTimeFromTyped("0.05")).toBe("00:05");
  });

  it("leaves a field's own value, an empty field and anything else as it came", () => {
    for (const value of ["10:00", "", "25.00", "10.60", "10", "zehn Uhr", "10.5", "10:00:00"]) expect(isoTimeFromTyped(value)).toBe(value);
    expect(isTime(isoTimeFromTyped("24.00"))).toBe(false);
  });
});
