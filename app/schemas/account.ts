// The forms of the account page (tab 'Deine Kontaktdaten').
import { z } from "zod";
import { SWIM_BADGES, TSHIRT_SIZES } from "~/lib/enums";
import { berlinToday, isIsoDate } from "~/lib/dates";
import { EMAIL_PATTERN } from "~/lib/email";
import { meetsPasswordRules, PASSWORD_MAX } from "~/lib/password-rules";
import { NAME_MAX } from "./auth";
import { isOwnPhone, OWN_PHONE_MESSAGE } from "~/lib/phone";
import { INVALID_BIRTH_DATE, optionalEmail, optionalLines, optionalText, requiredText } from "./fields";

/** Names and the e-mail address; passwords allow PASSWORD_MAX (72) everywhere. */
export const ACCOUNT_INPUT_MAX = 50;
export const EMAIL_FORMAT = "E-Mail-Format nicht korrekt";
export const PASSWORD_RULES = "Passwort entspricht nicht den Anforderungen";

export const namesSchema = z.object({
  intent: z.literal("names"),
  firstName: requiredText(NAME_MAX, "Bitte gib einen Vornamen an."),
  lastName: requiredText(NAME_MAX, "Bitte gib einen Nachnamen an."),
});

export const emailSchema = z.object({
  intent: z.literal("email"),
  email: requiredText(ACCOUNT_INPUT_MAX, EMAIL_FORMAT, EMAIL_FORMAT).pipe(z.string().regex(EMAIL_PATTERN, EMAIL_FORMAT)),
});

export const passwordSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword: z.string({ required_error: "Bitte gib dein aktuelles Passwort ein." }).max(PASSWORD_MAX, PASSWORD_RULES),
    newPassword: z
      .string({ required_error: PASSWORD_RULES })
      .max(PASSWORD_MAX, PASSWORD_RULES)
      .refine(meetsPasswordRules, PASSWORD_RULES),
    newPasswordRepeat: z.string({ required_error: PASSWORD_RULES }),
  })
  .refine((value) => value.newPassword === value.newPasswordRepeat, { message: PASSWORD_RULES, path: ["newPasswordRepeat"] });

export const deleteSchema = z.object({
  intent: z.literal("delete"),
  confirm: z.literal("ja", { errorMap: () => ({ message: "Bitte bestätige das Löschen." }) }),
});

/** One's own phone for the camp sheet (users.phone); checked as in the helper checks. */
export const phoneSchema = z.object({
  intent: z.literal("phone"),
  // Too long is said once, by its own message.
  phone: optionalText(50).refine((value) => !value || value.length > 50 || isOwnPhone(value), OWN_PHONE_MESSAGE),
});

export type AccountIntent = "names" | "email" | "phone" | "password" | "delete";

// Tab 'Deine Teilnehmer*innen'
export const REQUIRED_FIELDS = "Bitte fülle alle Pflichtfelder aus!";

const required = (max: number) => requiredText(max, REQUIRED_FIELDS);
const recordId = z
  .string()
  .regex(/^\d+$/)
  .transform(Number)
  .optional();

export const participantSchema = z.object({
  intent: z.literal("participant"),
  id: recordId,
  firstName: required(50),
  lastName: required(50),
  street: required(200),
  postalCode: optionalText(20).transform((v) => v || null),
  city: required(150),
  birthDate: z.string({ required_error: REQUIRED_FIELDS }).superRefine((value, ctx) => {
    if (!isIsoDate(value)) ctx.addIssue({ code: "custom", message: INVALID_BIRTH_DATE });
    // DECISIONS: birth dates are never in the future (the enrolment would refuse the child).
    else if (value > berlinToday()) ctx.addIssue({ code: "custom", message: "Das Geburtsdatum darf nicht in der Zukunft liegen." });
  }),
  municipality: optionalText(100),
  amtsverwaltung: optionalText(200),
  tshirtSize: z.enum(TSHIRT_SIZES).optional().transform((v) => v ?? null),
  swimBadge: z.enum(SWIM_BADGES).optional().transform((v) => v ?? null),
  specialNeeds: optionalLines(300),
});

/**
 * The same, for a child whose stored special needs are sent back as they are: the enrolment takes
 * 500 characters into the child's record (spec), and a parent correcting the address must not have
 * to shorten them (parents' walkthrough).
 */
export const participantKeepingNotesSchema = participantSchema.extend({ specialNeeds: optionalLines(500) });

export const guardianSchema = z.object({
  intent: z.literal("guardian"),
  id: recordId,
  firstName: required(50),
  lastName: required(50),
  street: optionalText(100),
  postalCode: optionalText(20),
  city: optionalText(150),
  email: optionalEmail(150),
  mobilePhone: optionalText(50),
  phone: optionalText(50),
});
