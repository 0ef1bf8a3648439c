import { describe, expect, it } from "vitest";
import { subjectOf } from "./admin-protocol";

const entry = (kind: string, details: Record<string, unknown>, extra: { person?: string | null; event?: string | null; entityId?: number | null } = {}) => ({
  kind,
  details,
  entityId: extra.entityId ?? null,
  person: extra.person ?? null,
  event: extra.event ?? null,
});

describe("what a protocol entry is about", () => {
  it("names people, events, documents and counts in German", () => {
    expect(subjectOf(entry("user", { name: "Greta Garbo" }))).toBe("Greta Garbo");
    expect(subjectOf(entry("legal", { document: "Teilnahmebedingungen", version: 3, fileName: "tb.pdf" }))).toBe("Teilnahmebedingungen (Version 3): tb.pdf");
    expect(subjectOf(entry("registration", { eventId: 4, reason: "voll" }, { person: "Mia Muster", event: "Zeltlager" }))).toBe("Mia Muster · Zeltlager");
    expect(subjectOf(entry("event", { title: "Herbstlager", dateFrom: "2026-10-01" }))).toBe("Herbstlager");
    // Counts after their label, so that one is not "1 Kommentare gelöscht" (leaders' review).
    expect(subjectOf(entry("system", { healthData: 2, comments: 1, sepaMandates: 1, registrations: 0 }))).toBe(
      "Anmeldungen bereinigt: 2 · Kommentare gelöscht: 1 · SEPA-Mandate gelöscht: 1 · Anmeldungen gelöscht: 0",
    );
    expect(subjectOf(entry("system", { healthData: 0, comments: 0, sepaMandates: 0, registrations: 0, mails: 3 }))).toBe(
      "Anmeldungen bereinigt: 0 · Kommentare gelöscht: 0 · SEPA-Mandate gelöscht: 0 · Anmeldungen gelöscht: 0 · E-Mails gelöscht: 3",
    );
  });

  it("falls back to the kind and number when nothing else is known, never to English keys", () => {
    expect(subjectOf(entry("registration", { eventId: 4 }, { entityId: 17 }))).toBe("Anmeldung Nr. 17");
    expect(subjectOf(entry("helper", { from: "pending", to: "accepted" }, { entityId: 5 }))).toBe("Mitarbeiter*in Nr. 5");
    expect(subjectOf(entry("system", { somethingNew: true }))).toBe("");
  });
});
