// IBAN check (DECISIONS.md): country code, length for that country, mod-97 check digits, by a
// well-kept library; spaces and lower case are accepted on input and removed when stored. The
// messages say 'Sie', as the SEPA dialog does (DECISIONS.md, form of address).
import { electronicFormatIBAN, isSEPACountry, validateIBAN, ValidationErrorsIBAN } from "ibantools";

export type IbanCheck = { ok: true; iban: string } | { ok: false; message: string };

export function checkIban(input: string): IbanCheck {
  const iban = electronicFormatIBAN(input.trim()) ?? "";
  if (iban === "") return { ok: false, message: "Bitte geben Sie Ihre IBAN an." };
  if (!/^[A-Z]{2}/.test(iban)) return { ok: false, message: "Die IBAN muss mit einem Ländercode beginnen, z. B. DE." };
  const country = iban.slice(0, 2);
  const result = validateIBAN(iban);
  if (result.errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) {
    return { ok: false, message: `Den Ländercode ${country} gibt es für IBANs nicht.` };
  }
  if (!isSEPACountry(country)) return { ok: false, message: `Konten aus ${country} nehmen nicht am SEPA-Lastschriftverfahren teil.` };
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) {
    return {
      ok: false,
      message: country === "DE" ? `Eine deutsche IBAN hat 22 Zeichen, diese hat ${iban.length}.` : `Die IBAN hat für ${country} nicht die richtige Länge.`,
    };
  }
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat) || result.errorCodes.includes(ValidationErrorsIBAN.ChecksumNotNumber)) {
    return { ok: false, message: "Die IBAN enthält Zeichen, die an dieser Stelle nicht vorkommen dürfen." };
  }
  if (!result.valid) return { ok: false, message: "Die Prüfziffer der IBAN stimmt nicht. Bitte prüfen Sie sie auf Tippfehler." };
  return { ok: true, iban };
}

/** DE89 3704 0044 0532 0130 00 */
export function formatIban(iban: string) {
  return iban.replace(/(.{4})/g, "$1 ").trim();
}

/** A parent's IBAN as a page may show it: country, check digits and the last four ("DE89 … 3000"). */
export function maskIban(iban: string) {
  return `${iban.slice(0, 4)} … ${iban.slice(-4)}`;
}
