import { describe, expect, it } from "vitest";
import { ageOn, needsGuardian } from "./age";
import { checkIban, formatIban, maskIban } from "./iban";

describe("IBAN", () => {
  it("accepts a valid German IBAN, with spaces and in lower case, and stores it compact", () => {
    expect(checkIban("DE89370400440532013000")).toEqual({ ok: true, iban: "DE89370400440532013000" });
    expect(checkIban(" de89 3704 0044 0532 0130 00 ")).toEqual({ ok: true, iban: "DE89370400440532013000" });
  });
  it("accepts a valid foreign SEPA IBAN", () => {
    expect(checkIban("FR14 2004 1010 0505 0001 3M02 606")).toEqual({ ok: true, iban: "FR1420041010050500013M02606" });
    expect(checkIban("AT611904300234573201").ok).toBe(true);
  });
  it("names wrong check digits", () => {
    expect(checkIban("DE89370400440532013001")).toEqual({ ok: false, message: "Die Prüfziffer der IBAN stimmt nicht. Bitte prüfen Sie sie auf Tippfehler." });
  });
  it("names a wrong length", () => {
    expect(checkIban("DE8937040044053201300")).toEqual({ ok: false, message: "Eine deutsche IBAN hat 22 Zeichen, diese hat 21." });
    expect(checkIban("DE893704004405320130000").ok).toBe(false);
  });
  it("names a missing or unknown country", () => {
    expect(checkIban("")).toEqual({ ok: false, message: "Bitte geben Sie Ihre IBAN an." });
    expect(checkIban("1234567890").ok).toBe(false);
    expect(checkIban("XX89370400440532013000")).toEqual({ ok: false, message: "Den Ländercode XX gibt es für IBANs nicht." });
  });
  it("formats in blocks of four", () => {
    expect(formatIban("DE89370400440532013000")).toBe("DE89 3704 0044 0532 0130 00");
  });
  it("shortens to country, check digits and the last four (what a page may show of a parent's account)", () => {
    expect(maskIban("DE89370400440532013000")).toBe("DE89 … 3000");
    expect(maskIban("AT611904300234573201")).toBe("AT61 … 3201");
  });
});

describe("age at the event's start", () => {
  it("counts the 18th birthday itself", () => {
    expect(ageOn("2009-07-10", "2027-07-09")).toBe(17);
    expect(ageOn("2009-07-10", "2027-07-10")).toBe(18);
    expect(needsGuardian("2009-07-10", "2027-07-09")).toBe(true);
    expect(needsGuardian("2009-07-10", "2027-07-10")).toBe(false);
    expect(needsGuardian("2009-07-11", "2027-07-10")).toBe(true);
  });
  it("handles a birthday on 29 February", () => {
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
    expect(ageOn("2008-02-29", "2026-03-01")).toBe(18);
  });
});
