import { describe, expect, it } from "vitest";
import { excelDate, safeText, sheetName } from "./excel.server";

describe("the formula guard", () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ["+49 171 1234567", "'+49 171 1234567"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", "'\r=1"],
  ])("%j becomes text %j", (input, output) => {
    expect(safeText(input)).toBe(output);
  });

  it("leaves ordinary text alone and drops control characters XML cannot hold", () => {
    expect(safeText("Anna Müller")).toBe("Anna Müller");
    expect(safeText("Zeile 1\nZeile 2")).toBe("Zeile 1\nZeile 2");
    expect(safeText("a\u0000b\u0007c")).toBe("abc");
    expect(safeText("\u0000=1")).toBe("'=1");
    // Not characters, and not allowed in XML: a name saved before the form dropped them.
    expect(safeText("Hen\ufffery\uffff")).toBe("Henry");
    expect(safeText("\ufffe=1")).toBe("'=1");
    expect(safeText("a\ud800b\udc00c")).toBe("abc");
    expect(safeText("🦊")).toBe("🦊");
  });
});

describe("sheet names and dates", () => {
  it("follows Excel's rules for sheet names, unique in the book", () => {
    const taken = new Set<string>();
    expect(sheetName("Füchse [1]", taken)).toBe("Füchse  1");
    expect(sheetName("füchse [1]", taken)).toBe("füchse  1 2");
    expect(sheetName("a/b:c*d?e\\f", taken)).toBe("a b c d e f");
    expect(sheetName("x".repeat(40), taken)).toHaveLength(28);
    expect(sheetName("   ", taken)).toBe("Tabelle");
  });

  it("never starts or ends a name with an apostrophe, never names one History, never splits a character", () => {
    const taken = new Set<string>();
    expect(sheetName("'Füchse'", taken)).toBe("Füchse");
    expect(sheetName("''", taken)).toBe("Tabelle");
    expect(sheetName("' ' Eulen '", taken)).toBe("Eulen");
    expect(sheetName("History", taken)).toBe("History 2");
    expect(sheetName("history", taken)).toBe("history 3");
    expect(sheetName("Bären\u0007\u0000", taken)).toBe("Bären");
    expect(sheetName("Fu\uffffchse\ufffe", taken)).toBe("Fuchse");
    const long = sheetName(`${"x".repeat(27)}🦊🦊`, taken);
    expect(long).toBe(`${"x".repeat(27)}`);
    const many = new Set<string>();
    const names = Array.from({ length: 120 }, () => sheetName("y".repeat(40), many));
    expect(names[99]).toBe(`${"y".repeat(27)} 100`);
    expect(Math.max(...names.map((n) => n.length))).toBe(31);
    expect(new Set(names).size).toBe(120);
  });

  it("a calendar date is that day at midnight UTC (Excel's serial of the day)", () => {
    expect(excelDate("2016-07-11")!.toISOString()).toBe("2016-07-11T00:00:00.000Z");
    expect(excelDate(null)).toBeNull();
  });
});
