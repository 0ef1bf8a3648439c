// Building blocks of the form schemas. conform hands an empty field over as undefined, so a
// required text says its message as `required_error` too.
import { z, ZodIssueCode, type ZodErrorMap } from "zod";
import { EMAIL_PATTERN } from "~/lib/email";

/**
 * German defaults for every message a schema does not set itself, so that no English text
 * ("Required", "Invalid enum value") can reach a person, whatever a browser sends.
 */
const germanErrors: ZodErrorMap = (issue, context) => {
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      return { message: issue.received === "undefined" ? "Bitte fülle dieses Feld aus." : "Diese Eingabe ist ungültig." };
    case ZodIssueCode.invalid_enum_value:
    case ZodIssueCode.invalid_literal:
    case ZodIssueCode.invalid_union:
    case ZodIssueCode.invalid_union_discriminator:
      return { message: "Bitte wähle einen der angebotenen Werte." };
    case ZodIssueCode.too_small:
      return { message: issue.type === "array" ? `Bitte wähle mindestens ${issue.minimum}.` : issue.type === "string" ? `Mindestens ${issue.minimum} Zeichen` : `Mindestens ${issue.minimum}` };
    case ZodIssueCode.too_big:
      return { message: issue.type === "array" ? `Höchstens ${issue.maximum} Einträge` : issue.type === "string" ? `Höchstens ${issue.maximum} Zeichen` : `Höchstens ${issue.maximum}` };
    case ZodIssueCode.invalid_string:
    case ZodIssueCode.invalid_date:
    case ZodIssueCode.custom:
      return { message: "Diese Eingabe ist ungültig." };
    default:
      return { message: context.defaultError === "Required" ? "Bitte fülle dieses Feld aus." : "Diese Eingabe ist ungültig." };
  }
};
z.setErrorMap(germanErrors);

export const tooLong = (max: number) => `Höchstens ${max} Zeichen`;

/** Trimmed text that must be there, at most `max` characters. */
export const requiredText = (max: number, required: string, longMessage = tooLong(max)) =>
  oneLine(requiredLines(max, required, longMessage));

/**
 * Trimmed text that may be empty (then ""), at most `max` characters. Too long is no fatal
 * failure: a form's checks across fields still run, so every message comes in one answer.
 */
export const optionalText = (max: number) => oneLine(optionalLines(max));

/**
 * Line breaks, with the blanks around them, as one space. A text field has one line; a post made
 * by hand could put lines into a name, and every mail would show them as lines of its own
 * ('Hallo Stefan⏎⏎Ihr Konto wurde gesperrt,'). Only the text areas below keep their lines.
 * Before the checks (a preprocess): a failed check before a transform would be fatal, and the
 * checks across fields, with their messages, would not run.
 */
function oneLineText(value: unknown) {
  return typeof value === "string" ? value.replace(/\s*[\r\n]+\s*/g, " ") : value;
}

/** `schema` for a field of one line: its line breaks become spaces before its checks. */
export const oneLine = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(oneLineText, schema);

/** A text area's text that must be there: trimmed, its lines kept. */
export const requiredLines = (max: number, required: string, longMessage = tooLong(max)) =>
  z.string({ required_error: required, invalid_type_error: required }).trim().min(1, required).max(max, longMessage);

/** A text area's text that may be empty (then ""): trimmed, its lines kept. */
export const optionalLines = (max: number) => z.string().trim().max(max, tooLong(max)).default("");

/**
 * An e-mail address that may be empty (then ""): one address of the app's pattern, never a list
 * or a group that a mail library would send to several people.
 */
export const optionalEmail = (max: number) =>
  optionalText(max).refine((v) => v === "" || EMAIL_PATTERN.test(v), "Bitte gib eine gültige E-Mail-Adresse an.");

/** A child's birth date that is no date (the enrolment, the account's children). */
export const INVALID_BIRTH_DATE = "Bitte gib ein gültiges Geburtsdatum an.";
