import { parseWithZod as conformParseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { loginSchema } from "~/schemas/auth";
import { enrollmentSchema } from "~/schemas/enrollment";
import { eventSchema } from "~/schemas/event";
import { parseWithZod } from "./parse-form.server";

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

const enrolment = {
  intent: "submit",
  submissionKey: "abcdefghijklmnopqrstuvwxyz",
  paymentMethod: "transfer",
  terms: "on",
  "boxes[0].participant": "neu",
  "boxes[0].child.firstName": "Mia",
  "boxes[0].child.lastName": "Muster",
  "boxes[0].child.birthDate": "2015-01-01",
  "boxes[0].guardian": "neu",
  "boxes[0].newGuardian.firstName": "",
  "boxes[0].tshirtSize": "M",
  "boxes[1].participant": "",
};

type Parsed = { status?: string; payload: unknown; error?: unknown; value?: unknown };
const view = (s: Parsed) => ({ status: s.status, payload: s.payload, error: s.status === "success" ? null : s.error, value: s.status === "success" ? s.value : null });

describe("parseWithZod with the coercion built once", () => {
  it("gives the submission conform gives, valid or not, on the first call and later ones", () => {
    const cases = [
      [enrollmentSchema, enrolment],
      [enrollmentSchema, { ...enrolment, paymentMethod: "", terms: "" }],
      [enrollmentSchema, {}],
      [loginSchema, { email: "  Erika@Example.org ", password: "geheim" }],
      [loginSchema, { email: "", password: "" }],
      [eventSchema, { title: "Zeltlager", capacity: "25", priceEuro: "12,50", dateFrom: "2027-07-01" }],
      [eventSchema, { title: "", capacity: "viele" }],
    ] as const;
    let valid = 0;
    for (let round = 0; round < 2; round++) {
      for (const [schema, entries] of cases) {
        const ours = parseWithZod(form(entries), { schema });
        const theirs = conformParseWithZod(form(entries), { schema });
        expect(view(ours as Parsed)).toEqual(view(theirs as Parsed));
        if (ours.status === "success") valid++;
      }
    }
    expect(valid).toBeGreaterThan(0);
  });
});
