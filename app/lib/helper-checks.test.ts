import { describe, expect, it } from "vitest";
import { addYears, checkWarnings, eventLastDay, type HelperCheckRecord } from "./helper-checks";

const record = (values: Partial<HelperCheckRecord>): HelperCheckRecord => ({
  policeCertificateCheckedOn: null,
  policeCertificateCheckedBy: null,
  juleicaNumber: null,
  juleicaExpiresOn: null,
  ...values,
});

describe("helper checks", () => {
  it("the last day is dateTo, else dateFrom", () => {
    expect(eventLastDay({ dateFrom: "2026-08-03", dateTo: "2026-08-10" })).toBe("2026-08-10");
    expect(eventLastDay({ dateFrom: "2026-08-03", dateTo: null })).toBe("2026-08-03");
  });

  it("adds years, 29 February to 28 February in a common year", () => {
    expect(addYears("2020-02-29", 5)).toBe("2025-02-28");
    expect(addYears("2021-08-10", 5)).toBe("2026-08-10");
  });

  it("warns when the certificate is missing", () => {
    expect(checkWarnings(record({}), "2026-08-10", "2026-07-01").map((w) => w.kind)).toEqual(["certificate-missing"]);
  });

  it("a certificate inspected exactly five years before the last day is fine; one day earlier is too old", () => {
    expect(checkWarnings(record({ policeCertificateCheckedOn: "2021-08-10" }), "2026-08-10", "2026-07-01")).toEqual([]);
    expect(checkWarnings(record({ policeCertificateCheckedOn: "2021-08-09" }), "2026-08-10", "2026-07-01")).toEqual([
      { kind: "certificate-old", text: "Erweitertes Führungszeugnis älter als fünf Jahre (eingesehen am 09.08.21)" },
    ]);
  });

  it("a Juleica expiring on the last day is fine; the day before warns", () => {
    const ok = record({ policeCertificateCheckedOn: "2025-01-01", juleicaExpiresOn: "2026-08-10" });
    expect(checkWarnings(ok, "2026-08-10", "2026-07-01")).toEqual([]);
    const early = record({ policeCertificateCheckedOn: "2025-01-01", juleicaExpiresOn: "2026-08-09" });
    expect(checkWarnings(early, "2026-08-10", "2026-07-01")).toEqual([
      { kind: "juleica-expires", text: "Juleica läuft vor Ende der Veranstaltung ab (am 09.08.26)" },
    ]);
  });

  it("an expired Juleica says so; no Juleica at all is no warning", () => {
    const expired = record({ policeCertificateCheckedOn: "2025-01-01", juleicaExpiresOn: "2026-06-30" });
    expect(checkWarnings(expired, "2026-08-10", "2026-07-01").map((w) => w.kind)).toEqual(["juleica-expired"]);
    expect(checkWarnings(record({ policeCertificateCheckedOn: "2025-01-01" }), "2026-08-10", "2026-07-01")).toEqual([]);
  });
});
