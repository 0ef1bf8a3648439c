// Building blocks of the form schemas. conform hands an empty field over as undefined, so a
// required text says its message as `required_error` too.
import { z } from "zod";

export const tooLong = (max: number) => `Höchstens ${max} Zeichen`;

/** Trimmed text that must be there, at most `max` characters. */
export const requiredText = (max: number, required: string, longMessage = tooLong(max)) =>
  z.string({ required_error: required, invalid_type_error: required }).trim().min(1, required).max(max, longMessage);

/** Trimmed text that may be empty (then ""), at most `max` characters. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLong(max))
    .optional()
    .transform((v) => v ?? "");
