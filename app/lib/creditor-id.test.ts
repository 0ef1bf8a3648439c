import { describe, expect, it } from "vitest";
import { isValidCreditorId, normalCreditorId } from "./creditor-id";

describe("the creditor identifier (Gläubiger-Identifikationsnummer)", () => {
  it("accepts valid ones, written in any case and with spaces", () => {
    expect(isValidCreditorId("DE98ZZZ09999999999")).toBe(true); // the Bundesbank's example
    expect(isValidCreditorId(normalCreditorId(" de98 zzz 0999 9999 999 "))).toBe(true);
    // The business code (positions 5 to 7) is not part of the check.
    expect(isValidCreditorId("DE98ABC09999999999")).toBe(true);
  });

  it("refuses a wrong check sum, a wrong shape or length", () => {
    expect(isValidCreditorId("DE97ZZZ09999999999")).toBe(false);
    expect(isValidCreditorId("DE98ZZZ0999999999")).toBe(false); // a German one has 18 characters
    expect(isValidCreditorId("98DEZZZ09999999999")).toBe(false);
    expect(isValidCreditorId("")).toBe(false);
    expect(isValidCreditorId("DE98ZZZ0999999999!")).toBe(false);
  });
});
