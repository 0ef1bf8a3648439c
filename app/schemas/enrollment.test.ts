import { describe, expect, it } from "vitest";
import { SEPA_MESSAGES, sepaSchema } from "./enrollment";

const valid = {
  firstName: "Eva",
  lastName: "Muster",
  street: "Hauptstraße 5",
  postalCode: "24103",
  city: "Kiel",
  iban: "DE89 3704 0044 0532 0130 00",
  consentMandate: "on",
  consentPrivacy: "on",
};

function errors(input: Record<string, unknown>) {
  const result = sepaSchema.safeParse(input);
  return result.success ? {} : result.error.flatten().fieldErrors;
}

describe("the SEPA mandate rules", () => {
  it("accepts a complete mandate and stores the IBAN compact", () => {
    const result = sepaSchema.parse(valid);
    expect(result.iban).toBe("DE89370400440532013000");
  });
  it("needs names of at least 2 characters after trimming", () => {
    expect(errors({ ...valid, firstName: " E " }).firstName).toEqual([SEPA_MESSAGES.firstName]);
    expect(errors({ ...valid, firstName: "Ev" }).firstName).toBeUndefined();
    expect(errors({ ...valid, lastName: "M" }).lastName).toEqual([SEPA_MESSAGES.lastName]);
  });
  it("needs a street of at least 3 characters with a house number", () => {
    expect(errors({ ...valid, street: "A1" }).street).toEqual([SEPA_MESSAGES.street]);
    expect(errors({ ...valid, street: "Am1" }).street).toBeUndefined();
    expect(errors({ ...valid, street: "Hauptstraße" }).street).toEqual([SEPA_MESSAGES.street]);
  });
  it("needs a postal code of exactly 5 digits", () => {
    expect(errors({ ...valid, postalCode: "2410" }).postalCode).toEqual([SEPA_MESSAGES.postalCode]);
    expect(errors({ ...valid, postalCode: "241030" }).postalCode).toEqual([SEPA_MESSAGES.postalCode]);
    expect(errors({ ...valid, postalCode: "24a03" }).postalCode).toContain(SEPA_MESSAGES.postalCode);
    expect(errors({ ...valid, postalCode: undefined }).postalCode).toEqual([SEPA_MESSAGES.placeMissing]);
  });
  it("needs a city of letters and spaces, umlauts included", () => {
    expect(errors({ ...valid, city: "Bad Bramstedt" }).city).toBeUndefined();
    expect(errors({ ...valid, city: "Lütjenburg" }).city).toBeUndefined();
    expect(errors({ ...valid, city: "Kiel 1" }).city).toEqual([SEPA_MESSAGES.city]);
  });
  it("needs both consents and a valid IBAN", () => {
    expect(errors({ ...valid, consentMandate: undefined }).consentMandate).toEqual([SEPA_MESSAGES.consent]);
    expect(errors({ ...valid, consentPrivacy: undefined }).consentPrivacy).toEqual([SEPA_MESSAGES.consent]);
    expect(errors({ ...valid, iban: "DE89370400440532013001" }).iban).toEqual(["Die Prüfziffer der IBAN stimmt nicht. Bitte prüfe sie auf Tippfehler."]);
  });
});
