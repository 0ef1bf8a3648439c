// The error summary lists a refused submission's messages in the order of the fields on the page
// (parents' review: a typed date the calendar does not have, refused by the schema, was listed
// before the missing last name above it, which the box's own rules found).
import { readFileSync } from "node:fs";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BOX_FIELDS } from "./box";
import { ErrorSummary } from "./error-summary";
import { SEPA_FIELDS } from "./payment";

function entries(errors: Record<string, string[]>) {
  const html = renderToString(<ErrorSummary errors={errors} stamp={null} />);
  return [...html.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
}

describe("the enrolment form's error summary", () => {
  it("lists a box's messages in the order of its fields, whichever check found them first", () => {
    expect(
      entries({
        "boxes[1].child.birthDate": ["Bitte gib ein gültiges Geburtsdatum an."],
        "boxes[0].tshirtSize": ["Bitte wähle eine T-Shirt-Größe."],
        "boxes[1].newGuardian.firstName": ["Bitte gib den Vornamen an."],
        "boxes[1].child.lastName": ["Bitte gib den Nachnamen an."],
        "boxes[1].participant": ["Bitte wähle ein Kind."],
        terms: ["Bitte bestätige die Teilnahmebedingungen und die Datenschutzerklärung."],
        "boxes[1].tshirtSize": ["Bitte wähle eine T-Shirt-Größe."],
      }),
    ).toEqual([
      "Teilnehmer*in 1: Bitte wähle eine T-Shirt-Größe.",
      "Teilnehmer*in 2: Bitte wähle ein Kind.",
      "Teilnehmer*in 2 (neues Kind): Bitte gib den Nachnamen an.",
      "Teilnehmer*in 2 (neues Kind): Bitte gib ein gültiges Geburtsdatum an.",
      "Teilnehmer*in 2: Bitte wähle eine T-Shirt-Größe.",
      "Teilnehmer*in 2 (neue*r Erziehungsberechtigte*r): Bitte gib den Vornamen an.",
      "Bitte bestätige die Teilnahmebedingungen und die Datenschutzerklärung.",
    ]);
  });

  it("knows the fields in the order the box and the mandate's section draw them", () => {
    const named = (file: string, pattern: RegExp) => [...readFileSync(new URL(file, import.meta.url), "utf8").matchAll(pattern)].map((m) => m[1]);
    expect(named("./box.tsx", /name=\{at\("([\w.]+)"\)\}/g).filter((n) => !["saveKey", "answersFor"].includes(n))).toEqual(BOX_FIELDS);
    expect(named("./payment.tsx", /name=\{?"sepa\.(\w+)"/g)).toEqual(SEPA_FIELDS);
  });
});
