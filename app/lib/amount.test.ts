import { describe, expect, it } from "vitest";
import { formatAmount, formatTotal } from "./amount";

const nbsp = (text: string) => text.replace(/\u00a0/g, " ");

describe("amounts where none may be stored", () => {
  it("shows '–' for no amount and euros for a stored one, 0 included", () => {
    expect(formatAmount(null)).toBe("–");
    expect(formatAmount(undefined)).toBe("–");
    expect(nbsp(formatAmount(0))).toBe("0,00 €");
    expect(nbsp(formatAmount(24950))).toBe("249,50 €");
  });

  it("sums the stored amounts and shows '–' when none is stored", () => {
    expect(formatTotal([])).toBe("–");
    expect(formatTotal([null, null])).toBe("–");
    expect(nbsp(formatTotal([null, 1000, 2050]))).toBe("30,50 €");
  });
});
