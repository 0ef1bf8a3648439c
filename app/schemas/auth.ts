// Forms of signing up, signing in and resetting a password. Used by the browser (live
// feedback, when JavaScript runs) and by the actions (always).
import { z } from "zod";
import { EMAIL_MAX, EMAIL_PATTERN } from "~/lib/email";
import { meetsPasswordRules, PASSWORD_MAX } from "~/lib/password-rules";
import { requiredText } from "./fields";

export const NAME_MAX = 50;


export const SIGNUP_INVALID_EMAIL = { title: "Ungültige E-Mail-Adresse", message: "Bitte überprüfen Sie Ihre Eingabe." };
export const SIGNUP_MISMATCH = { title: "Passwort stimmt nicht überein", message: "Bitte überprüfen Sie Ihre Eingabe." };
export const SIGNUP_TAKEN = {
  title: "Registrierung fehlgeschlagen",
  message: "Diese Email wird bereits verwendet. Bitte nutzen Sie eine andere Email-Adresse",
};
/** At the e-mail field, beside the spec's SIGNUP_TAKEN above the form. */
export const EMAIL_HAS_ACCOUNT = "Diese E-Mail-Adresse hat schon ein Konto.";
export const SIGNUP_FAILED = { title: "Registrierung fehlgeschlagen", message: "Bitte versuchen Sie es erneut." };
export const LOGIN_FAILED = { title: "Da hat etwas nicht geklappt", message: "Nutzername oder Passwort falsch." };
/** A field left empty: nothing was wrong yet, the fields say what they miss. */
export const LOGIN_INCOMPLETE = { title: "Da hat etwas nicht geklappt", message: "Bitte geben Sie E-Mail-Adresse und Passwort ein." };

export const signupSchema = z
  .object({
    firstName: requiredText(NAME_MAX, "Bitte geben Sie Ihren Vornamen an."),
    lastName: requiredText(NAME_MAX, "Bitte geben Sie Ihren Nachnamen an."),
    email: requiredText(EMAIL_MAX, SIGNUP_INVALID_EMAIL.title).pipe(z.string().regex(EMAIL_PATTERN, SIGNUP_INVALID_EMAIL.title)),
    password: z
      .string({ required_error: "Bitte geben Sie ein Passwort ein." })
      .max(PASSWORD_MAX, `Höchstens ${PASSWORD_MAX} Zeichen`)
      .refine(meetsPasswordRules, "Das Passwort erfüllt noch nicht alle Regeln."),
    passwordRepeat: z.string({ required_error: "Bitte wiederholen Sie das Passwort." }),
  })
  .refine((value) => value.password === value.passwordRepeat, {
    message: SIGNUP_MISMATCH.title,
    path: ["passwordRepeat"],
  });

export const loginSchema = z.object({
  email: z.string({ required_error: "Bitte geben Sie Ihre E-Mail-Adresse ein." }).trim().max(EMAIL_MAX),
  password: z.string({ required_error: "Bitte geben Sie Ihr Passwort ein." }).max(1000),
  redirectTo: z.string().optional(),
});

export const FORGOT_INVALID_EMAIL = "Bitte geben Sie eine gültige eMail-Adresse ein";

export const forgotSchema = z.object({
  email: z.string({ required_error: FORGOT_INVALID_EMAIL }).trim().max(EMAIL_MAX, FORGOT_INVALID_EMAIL).regex(EMAIL_PATTERN, FORGOT_INVALID_EMAIL),
});

export const RESET_MISMATCH = "Die Passwörter stimmen nicht überein!";

export const resetPasswordSchema = z
  .object({
    password: z
      .string({ required_error: "Bitte geben Sie ein neues Passwort ein." })
      .refine(meetsPasswordRules, "Das Passwort erfüllt noch nicht alle Kriterien."),
    confirmPassword: z.string({ required_error: RESET_MISMATCH }),
  })
  .refine((value) => value.password === value.confirmPassword, { message: RESET_MISMATCH, path: ["confirmPassword"] });

export const resendSchema = z.object({
  email: z.string({ required_error: FORGOT_INVALID_EMAIL }).trim().max(EMAIL_MAX).regex(EMAIL_PATTERN, FORGOT_INVALID_EMAIL),
});

const REDIRECT_BASE = "http://lagerfeuer.invalid";
const REDIRECT_MAX = 2000;
// Whitespace, control characters and backslashes: the URL parser drops or rewrites some of
// them (`/\t/x` becomes `//x`, `/\\x` becomes `//x`), and no path of ours contains them.
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f\\]/;
// Encoded slashes and backslashes (also encoded twice): no path of ours needs them, and a
// proxy or browser that decodes them would see a different path.
const ENCODED_SEPARATOR = /%(25)*(2f|5c)/i;

/**
 * Only paths of this site, judged after the URL is normalised (dot segments, percent-encoded
 * dots, stripped tabs): no scheme, no host, no protocol-relative `//`, no backslash tricks.
 * Anything else becomes `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof to !== "string" || to.length > REDIRECT_MAX || !to.startsWith("/") || UNSAFE_CHARACTERS.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  const path = url.pathname;
  if (!path.startsWith("/") || path.startsWith("//") || ENCODED_SEPARATOR.test(path)) return fallback;
  // What the path says once decoded must not be anything else either.
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return fallback;
  }
  if (decoded.startsWith("//") || UNSAFE_CHARACTERS.test(decoded.replaceAll(" ", "_"))) return fallback;
  return `${path}${url.search}${url.hash}`;
}
