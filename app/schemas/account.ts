// The forms of the account page (tab 'Deine Kontaktdaten').
import { z } from "zod";
import { EMAIL_PATTERN } from "~/lib/email";
import { meetsPasswordRules } from "~/lib/password-rules";
import { NAME_MAX, requiredText } from "./auth";

export const ACCOUNT_INPUT_MAX = 50;
export const EMAIL_FORMAT = "E-Mail-Format nicht korrekt";
export const PASSWORD_RULES = "Passwort entspricht nicht den Anforderungen";

export const namesSchema = z.object({
  intent: z.literal("names"),
  firstName: requiredText("Bitte gib einen Vornamen an.", NAME_MAX),
  lastName: requiredText("Bitte gib einen Nachnamen an.", NAME_MAX),
});

export const emailSchema = z.object({
  intent: z.literal("email"),
  email: requiredText(EMAIL_FORMAT, ACCOUNT_INPUT_MAX, EMAIL_FORMAT).pipe(z.string().regex(EMAIL_PATTERN, EMAIL_FORMAT)),
});

export const passwordSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword: z.string({ required_error: "Bitte gib dein aktuelles Passwort ein." }).max(ACCOUNT_INPUT_MAX, PASSWORD_RULES),
    newPassword: z
      .string({ required_error: PASSWORD_RULES })
      .max(ACCOUNT_INPUT_MAX, PASSWORD_RULES)
      .refine(meetsPasswordRules, PASSWORD_RULES),
    newPasswordRepeat: z.string({ required_error: PASSWORD_RULES }),
  })
  .refine((value) => value.newPassword === value.newPasswordRepeat, { message: PASSWORD_RULES, path: ["newPasswordRepeat"] });

export const deleteSchema = z.object({
  intent: z.literal("delete"),
  confirm: z.literal("ja", { errorMap: () => ({ message: "Bitte bestätige das Löschen." }) }),
});

export const accountIntents = ["names", "email", "password", "delete"] as const;
export type AccountIntent = (typeof accountIntents)[number];
