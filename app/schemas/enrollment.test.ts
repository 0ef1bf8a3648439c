import { describe, expect, it } from "vitest";
import { SEPA_MESSAGES, sepaProblems, sepaSchema } from "./enrollment";

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
  it("needs a postal code of exactly 5 digits for a German IBAN, 4 or 5 for a foreign one", () => {
    expect(errors({ ...valid, iban: "AT61 1904 3002 3457 3201", postalCode: "6020" }).postalCode).toBeUndefined();
    expect(errors({ ...valid, iban: "AT61 1904 3002 3457 3201", postalCode: "602" }).postalCode).toEqual([SEPA_MESSAGES.postalCodeForeign]);
    expect(errors({ ...valid, postalCode: "2410" }).postalCode).toEqual([SEPA_MESSAGES.postalCode]);
    expect(errors({ ...valid, postalCode: "241030" }).postalCode).toEqual([SEPA_MESSAGES.postalCode]);
    expect(errors({ ...valid, postalCode: "24a03" }).postalCode).toContain(SEPA_MESSAGES.postalCode);
    expect(errors({ ...valid, postalCode: undefined }).postalCode).toEqual([SEPA_MESSAGES.placeMissing]);
  });
  it("needs a city of letters, spaces, hyphens, dots, apostrophes and parentheses", () => {
    for (const city of ["Bad Bramstedt", "Garmisch-Partenkirchen", "Halle (Saale)", "St. Peter-Ording", "L'Aquila", "Besançon"]) {
      expect(errors({ ...valid, city }).city).toBeUndefined();
    }
    expect(errors({ ...valid, city: "Kiel/Holstein" }).city).toEqual([SEPA_MESSAGES.city]);
    expect(errors({ ...valid, city: "Lütjenburg" }).city).toBeUndefined();
    expect(errors({ ...valid, city: "Kiel 1" }).city).toEqual([SEPA_MESSAGES.city]);
  });
  it("names a wrong postal code in the same round as a wrong IBAN", () => {
    expect(Object.keys(sepaProblems({ ...valid, iban: "DE89370400440532013001", postalCode: "2410" }).problems).sort()).toEqual(["iban", "postalCode"]);
    expect(sepaProblems(valid).value?.iban).toBe("DE89370400440532013000");
  });
  it("names each field once, with one message, when the section is sent empty (as a browser sends it)", () => {
    const empty = { firstName: "", lastName: "", street: "", postalCode: "", city: "", iban: "" };
    const { problems } = sepaProblems(empty);
    expect(problems).toEqual({
      firstName: [SEPA_MESSAGES.firstName],
      lastName: [SEPA_MESSAGES.lastName],
      street: [SEPA_MESSAGES.street],
      postalCode: [SEPA_MESSAGES.placeMissing],
      city: [SEPA_MESSAGES.cityMissing],
      iban: ["Bitte geben Sie Ihre IBAN an."],
      consentMandate: [SEPA_MESSAGES.consentMandate],
      consentPrivacy: [SEPA_MESSAGES.consentPrivacy],
    });
    // A street without a number that is also too short: one message, not the same one twice.
    expect(sepaProblems({ ...valid, street: "Ab" }).problems.street).toEqual([SEPA_MESSAGES.street]);
  });
  it("needs both consents and a valid IBAN", () => {
    expect(errors({ ...valid, consentMandate: undefined }).consentMandate).toEqual([SEPA_MESSAGES.consentMandate]);
    expect(errors({ ...valid, consentPrivacy: undefined }).consentPrivacy).toEqual([SEPA_MESSAGES.consentPrivacy]);
    expect(errors({ ...valid, iban: "DE89370400440532013001" }).iban).toEqual(["Die Prüfziffer der IBAN stimmt nicht. Bitte prüfen Sie sie auf Tippfehler."]);
  });
});
