import { describe, expect, it } from "vitest";
import { z } from "zod";
import "./fields";

describe("default messages", () => {
  it("are German", () => {
    const schema = z.object({ a: z.string(), b: z.enum(["ja", "nein"]), c: z.number().max(3), d: z.string().email() });
    const result = schema.safeParse({ b: "vielleicht", c: 9, d: "x" });
    expect(result.success).toBe(false);
    const messages = result.success ? [] : result.error.issues.map((i) => i.message);
    expect(messages).toEqual(["Bitte fülle dieses Feld aus.", "Bitte wähle einen der angebotenen Werte.", "Höchstens 3", "Diese Eingabe ist ungültig."]);
  });
});
