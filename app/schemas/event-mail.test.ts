import { describe, expect, it } from "vitest";
import { eventMailSchema, parseEventMail } from "./event-mail";

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

describe("the event e-mail form", () => {
  it("takes subject and text with their limits and the choice of recipients", () => {
    const ok = parseEventMail(form({ subject: " Packliste ", text: "Bitte mitbringen: Schlafsack", audience: "waiting" }));
    expect(ok).toEqual({ ok: true, data: { subject: "Packliste", text: "Bitte mitbringen: Schlafsack", audience: "waiting" } });
    expect(parseEventMail(form({ subject: "x".repeat(100), text: "y".repeat(1500) })).ok).toBe(true);
  });

  it("refuses empty, blank or too long fields and an unknown choice", () => {
    expect(parseEventMail(form({ subject: "  ", text: "" }))).toEqual({
      ok: false,
      errors: { subject: "Bitte geben Sie einen Betreff an.", text: "Bitte geben Sie einen Text an." },
    });
    const long = parseEventMail(form({ subject: "x".repeat(101), text: "y".repeat(1501), audience: "alle" }));
    expect(long.ok ? null : Object.keys(long.errors).sort()).toEqual(["audience", "subject", "text"]);
  });
});

describe("the subject", () => {
  it("is one line: line breaks become spaces, so no header can ride along", () => {
    const parsed = eventMailSchema.parse({ subject: "Hallo\r\nBcc: evil@attacker.example", text: "x", audience: "both" });
    expect(parsed.subject).toBe("Hallo Bcc: evil@attacker.example");
  });
});
