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
  z.string({ required_error: required, invalid_type_error: required }).trim().min(1, required).max(max, longMessage);

/**
 * Trimmed text that may be empty (then ""), at most `max` characters. Too long is no fatal
 * failure: a form's checks across fields still run, so every message comes in one answer.
 */
export const optionalText = (max: number) => z.string().trim().max(max, tooLong(max)).default("");

/**
 * An e-mail address that may be empty (then ""): one address of the app's pattern, never a list
 * or a group that a mail library would send to several people.
 */
export const optionalEmail = (max: number) =>
  optionalText(max).refine((v) => v === "" || EMAIL_PATTERN.test(v), "Bitte gib eine gültige E-Mail-Adresse an.");
