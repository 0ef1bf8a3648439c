// The enrolment form (spec part 2, §2.1 and §5): participant boxes, guardians, SEPA mandate.
import { z } from "zod";
import { isIsoDate } from "~/lib/dates";
import { checkIban } from "~/lib/iban";
import { INVALID_BIRTH_DATE, oneLine, optionalEmail, optionalLines, optionalText, requiredText } from "./fields";
import { SWIM_BADGES, TSHIRT_SIZES } from "~/lib/enums";

const text = (max: number, required?: string) => (required ? requiredText(max, required) : optionalText(max));

const date = (required: string, invalid: string) => z.string({ required_error: required }).refine(isIsoDate, invalid);

/** A yes/no answer of a radio pair; missing stays undefined (checked by the submit rules). */
const answer = z.enum(["ja", "nein"]).optional();

export const participantFields = {
  firstName: text(50, "Bitte gib den Vornamen an."),
  lastName: text(50, "Bitte gib den Nachnamen an."),
  street: text(200, "Bitte gib Straße und Hausnummer an."),
  postalCode: text(20),
  city: text(150, "Bitte gib den Ort an."),
  birthDate: date("Bitte gib das Geburtsdatum an.", INVALID_BIRTH_DATE),
  municipality: text(100),
  amtsverwaltung: text(200),
};

export const guardianFields = {
  firstName: text(50, "Bitte gib den Vornamen an."),
  lastName: text(50, "Bitte gib den Nachnamen an."),
  street: text(100),
  postalCode: text(20),
  city: text(150),
  email: optionalEmail(150),
  mobilePhone: text(50),
  phone: text(50),
};

export const boxSchema = z.object({
  /** An existing child of the account ("123") or "neu". */
  participant: z.string({ required_error: "Bitte wähle ein Kind aus oder lege eines an." }),
  child: z.object(participantFields).partial().optional(),
  tshirtSize: z.enum(TSHIRT_SIZES, { errorMap: () => ({ message: "Bitte wähle eine T-Shirt-Größe." }) }).optional(),
  swimBadge: z.enum(SWIM_BADGES, { errorMap: () => ({ message: "Bitte wähle ein Schwimmabzeichen." }) }).optional(),
  specialNeeds: optionalLines(500),
  nameOfInsured: text(100),
  birthdateOfInsured: z
    .string()
    .optional()
    .refine((v) => !v || isIsoDate(v), "Bitte gib ein gültiges Geburtsdatum der versicherten Person an."),
  allowedToWander: answer,
  allowedToSwim: answer,
  canSwim: answer,
  allowedToCanoe: answer,
  /** An existing guardian of the account, "neu", "box-{index}" (the one typed there), or nothing. */
  guardian: z.string().optional(),
  newGuardian: z.object(guardianFields).partial().optional(),
});

export const SEPA_MESSAGES = {
  firstName: "Bitte geben Sie Ihren vollständigen Vornamen an",
  lastName: "Bitte geben Sie Ihren vollständigen Nachnamen an",
  street: "Bitte geben Sie Ihre Straße und Hausnummer an",
  placeMissing: "Bitte geben Sie Ihre Postleitzahl und Ihren Ort an",
  postalCode: "Die Postleitzahl muss genau 5 Ziffern enthalten",
  postalCodeForeign: "Die Postleitzahl muss 4 oder 5 Ziffern enthalten",
  city: "Der Ortsname darf nur Buchstaben enthalten",
  cityMissing: "Bitte geben Sie Ihren Ort an",
  consentMandate: "Bitte bestätigen Sie das SEPA-Lastschriftmandat.",
  consentPrivacy: "Bitte bestätigen Sie, dass Sie die Datenschutzerklärung gelesen haben.",
} as const;

// DECISIONS.md, SEPA address rules: real places ('Halle (Saale)', 'St. Peter-Ording') and the
// 4-digit postal codes of the foreign SEPA countries whose IBANs we accept.
export const sepaSchema = z
  .object({
  firstName: oneLine(z.string({ required_error: SEPA_MESSAGES.firstName }).trim().min(2, SEPA_MESSAGES.firstName).max(50, "Höchstens 50 Zeichen")),
  lastName: oneLine(z.string({ required_error: SEPA_MESSAGES.lastName }).trim().min(2, SEPA_MESSAGES.lastName).max(50, "Höchstens 50 Zeichen")),
  street: oneLine(
    z
      .string({ required_error: SEPA_MESSAGES.street })
      .trim()
      .min(3, SEPA_MESSAGES.street)
      .max(100, "Höchstens 100 Zeichen")
      .regex(/\d/, SEPA_MESSAGES.street),
  ),
  postalCode: z.string({ required_error: SEPA_MESSAGES.placeMissing }).trim().min(1, SEPA_MESSAGES.placeMissing),
  city: oneLine(
    z
      .string({ required_error: SEPA_MESSAGES.cityMissing })
      .trim()
      .min(1, SEPA_MESSAGES.cityMissing)
      .max(100, "Höchstens 100 Zeichen")
      .regex(/^[\p{L}][\p{L}\p{M} .'’()-]*$/u, SEPA_MESSAGES.city),
  ),
  iban: z
    .string({ required_error: "Bitte geben Sie Ihre IBAN an." })
    .max(50, "Höchstens 50 Zeichen")
    .transform((value, ctx) => {
      const result = checkIban(value);
      if (!result.ok) {
        ctx.addIssue({ code: "custom", message: result.message });
        return z.NEVER;
      }
      return result.iban;
    }),
  consentMandate: z.literal("on", { errorMap: () => ({ message: SEPA_MESSAGES.consentMandate }) }),
  consentPrivacy: z.literal("on", { errorMap: () => ({ message: SEPA_MESSAGES.consentPrivacy }) }),
  })
  .superRefine((value, ctx) => {
    // With a wrong IBAN (or postal code) zod still calls this; sepaProblems then decides.
    if (typeof value.iban !== "string" || typeof value.postalCode !== "string") return;
    const message = postalCodeProblem(value.postalCode, value.iban);
    if (message) ctx.addIssue({ code: "custom", path: ["postalCode"], message });
  });

/** Exactly 5 digits for a German account (and while the IBAN is unclear), 4 or 5 abroad. */
export function postalCodeProblem(postalCode: string, iban: string) {
  const code = postalCode.trim();
  if (!code) return SEPA_MESSAGES.placeMissing;
  const foreign = /^[A-Z]{2}/i.test(iban.trim()) && !/^DE/i.test(iban.trim());
  if (foreign) return /^\d{4,5}$/.test(code) ? null : SEPA_MESSAGES.postalCodeForeign;
  return /^\d{5}$/.test(code) ? null : SEPA_MESSAGES.postalCode;
}

/**
 * Every field's message of the SEPA section at once (zod skips the refinement when a field fails),
 * one per field: an empty field counts as not given (as conform treats the other fields), and of
 * a field's failed rules the first speaks.
 */
export function sepaProblems(raw: unknown): { value: SepaValue | null; problems: Record<string, string[]> } {
  const fields = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => !(typeof value === "string" && value.trim() === "")));
  const parsed = sepaSchema.safeParse(given);
  if (parsed.success) return { value: parsed.data, problems: {} };
  const problems: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(parsed.error.flatten().fieldErrors)) if (messages?.length) problems[field] = [messages[0]];
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const postal = postalCodeProblem(text(fields.postalCode), text(fields.iban));
  if (postal && !problems.postalCode) problems.postalCode = [postal];
  return { value: null, problems };
}

export const enrollmentSchema = z.object({
  submissionKey: z.string().regex(/^[\w-]{16,64}$/, "Das Formular ist ungültig. Bitte lade die Seite neu."),
  boxes: z.array(boxSchema).min(1, "Bitte melde mindestens ein Kind an.").max(10, "Höchstens 10 Kinder auf einmal."),
  referral: optionalLines(300),
  paymentMethod: z.enum(["transfer", "sepa"], { errorMap: () => ({ message: "Bitte wähle eine Zahlungsart." }) }),
  terms: z.literal("on", { errorMap: () => ({ message: "Bitte bestätige die Teilnahmebedingungen und die Datenschutzerklärung." }) }),
  sepa: z.unknown().optional(),
});

export type EnrollmentValue = z.infer<typeof enrollmentSchema>;
export type BoxValue = z.infer<typeof boxSchema>;
export type SepaValue = z.infer<typeof sepaSchema>;

/** A new child saved from the enrolment form on its own ('Im Konto speichern'). */
export const newChildSchema = z.object(participantFields);
export const newGuardianSchema = z.object(guardianFields);
