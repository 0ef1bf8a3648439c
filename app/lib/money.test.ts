import { describe, expect, it } from "vitest";
import { childAmounts, epcAmount, totalCents } from "./money";

describe("childAmounts", () => {
  it("charges the first child in full and takes the discount off each further one", () => {
    expect(childAmounts(24900, 2000, 0, [true, true, true])).toEqual([24900, 22900, 22900]);
  });

  it("counts children of the account that already hold a place", () => {
    expect(childAmounts(24900, 2000, 1, [true])).toEqual([22900]);
  });

  it("leaves waiting children out and never goes below zero", () => {
    const amounts = childAmounts(1000, 1500, 0, [true, false, true]);
    expect(amounts).toEqual([1000, null, 0]);
    expect(totalCents(amounts)).toBe(1000);
  });

  it("adds cents exactly", () => {
    expect(totalCents(childAmounts(10, 0, 0, Array(3).fill(true)))).toBe(30);
    expect(totalCents(childAmounts(19999, 1, 0, [true, true]))).toBe(39997);
  });
});

describe("epcAmount", () => {
  it("writes euros with a point and two decimals", () => {
    expect(epcAmount(24900)).toBe("EUR249.00");
    expect(epcAmount(5)).toBe("EUR0.05");
    expect(epcAmount(123456)).toBe("EUR1234.56");
  });
});
