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

describe("one-line fields", () => {
  it("turn the line breaks a hand-made post puts into a name into one space; the text areas keep their lines", async () => {
    const { namesSchema, participantSchema } = await import("./account");
    const { signupSchema } = await import("./auth");
    // Attack probe: 'Stefan⏎⏎Ihr Konto wurde gesperrt' stood as lines of their own in every mail.
    expect(namesSchema.parse({ intent: "names", firstName: "Stefan\r\n\r\nIhr Konto wurde gesperrt", lastName: "Meyer" }).firstName).toBe("Stefan Ihr Konto wurde gesperrt");
    const signup = signupSchema.safeParse({ firstName: "Eva\r\nBcc: x@evil.com", lastName: "B", email: "eva@example.org", password: "Sicher!123", passwordRepeat: "Sicher!123" });
    expect(signup.success && signup.data.firstName).toBe("Eva Bcc: x@evil.com");
    const child = participantSchema.parse({
      intent: "participant", firstName: "Max\n- Moritz", lastName: "Meyer", street: "Weg 1", city: "Kiel", birthDate: "2015-01-01", specialNeeds: "Nussallergie\r\nNotfallspritze im Rucksack",
    });
    expect(child.firstName).toBe("Max - Moritz");
    expect(child.specialNeeds).toBe("Nussallergie\r\nNotfallspritze im Rucksack");
    const { boxSchema, enrollmentSchema } = await import("./enrollment");
    const box = boxSchema.parse({ participant: "neu", child: { firstName: "Ida\r\nIda", lastName: "B" }, specialNeeds: "Asthma\r\nSpray" });
    expect([box.child?.firstName, box.specialNeeds]).toEqual(["Ida Ida", "Asthma\r\nSpray"]);
    expect(enrollmentSchema.shape.referral.parse("Freunde\r\nSchule")).toBe("Freunde\r\nSchule");
    const { sepaSchema } = await import("./enrollment");
    const mandate = sepaSchema.safeParse({ firstName: "Sa\r\nbine", lastName: "Sepa\nX", street: "Weg\n1", postalCode: "24306", city: "Kiel\r\nNord", iban: "DE89 3704 0044 0532 0130 00", consentMandate: "on", consentPrivacy: "on" });
    const shown = mandate.success ? mandate.data : (mandate.error.issues.map((i) => i.path.join(".")) as never);
    expect(shown).toMatchObject({ firstName: "Sa bine", lastName: "Sepa X", street: "Weg 1", city: "Kiel Nord" });
  });
});
