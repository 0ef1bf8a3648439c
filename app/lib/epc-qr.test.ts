import jsQR from "jsqr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { epcPayload, qrPath } from "./epc-qr";

describe("epcPayload", () => {
  it("lists the fields of EPC069-12 in order", () => {
    expect(
      epcPayload({ bic: "BYLADEM1001", name: "Jugendverband e.V.", iban: "DE02 1203 0000 0000 2020 51", amountCents: 47800, text: "LF-3-A7" }).split("\n"),
    ).toEqual(["BCD", "002", "1", "SCT", "BYLADEM1001", "Jugendverband e.V.", "DE02120300000000202051", "EUR478.00", "", "", "LF-3-A7"]);
  });
});

describe("qrPath", () => {
  it("draws a square code with a quiet zone, also for umlauts", () => {
    const { size, d } = qrPath(epcPayload({ bic: "BYLADEM1001", name: "Jugendverband Müßiggang e.V.", iban: "DE02120300000000202051", amountCents: 100, text: "LF-1-A1" }));
    // Version 6 or more at level M for about 90 bytes: 41 modules and up, plus 2 × 4 margin.
    expect(size).toBeGreaterThanOrEqual(49);
    expect(d.startsWith("M4 4h7v1h-7z")).toBe(true); // the finder pattern's top edge, one run
    expect(qrPath("a").size).toBeLessThan(size);
  });

  it("draws each row's dark modules in runs, not one square each", () => {
    const { size, d } = qrPath(epcPayload({ bic: "BYLADEM1001", name: "Jugendverband e.V.", iban: "DE02120300000000202051", amountCents: 24500, text: "LF-2026-00123 Max Mustermann" }));
    const runs = [...d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
    expect(runs.map((r) => r[0]).join("")).toBe(d);
    for (const [, x, y, w, back] of runs) {
      expect(w).toBe(back);
      expect(Number(x) + Number(w)).toBeLessThanOrEqual(size - 4);
      expect(Number(y)).toBeLessThan(size - 4);
    }
    // Runs in one row never touch: a run that could grow would be two where one does.
    const byRow = new Map<string, [number, number][]>();
    for (const [, x, y, w] of runs) byRow.set(y, [...(byRow.get(y) ?? []), [Number(x), Number(x) + Number(w)]]);
    for (const row of byRow.values()) for (let i = 1; i < row.length; i++) expect(row[i][0]).toBeGreaterThan(row[i - 1][1]);
    // A phone on a weak connection loads the confirmation page: the code is about half of what
    // one square per module took (13.5 kB for this transfer).
    expect(d.length).toBeLessThan(9_000);
  });
});

describe("the GiroCode as drawn", () => {
  it("reads back as the exact transfer, umlauts in UTF-8 included", async () => {
    const payload = epcPayload({ bic: "BYLADEM1001", name: "Jugendverband Müßiggang e.V.", iban: "DE02120300000000202051", amountCents: 38000, text: "LF-12-A345" });
    const { size, d } = qrPath(payload);
    // The SVG as the confirmation page draws it, rasterised at 6 pixels per module.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size * 6}" height="${size * 6}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    expect(code).not.toBeNull();
    expect(Buffer.from(code!.binaryData).toString("utf8")).toBe(payload);
  });
});
