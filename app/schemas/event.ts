// The form of creating and editing an event.
import { z } from "zod";
import { isIsoDate, isTime } from "~/lib/dates";
import { parsePriceCents } from "~/lib/event-rules";
import { optionalText, requiredText } from "./fields";

export const INVALID_FORM = "Mindestens ein Feld ist nicht valide";
export const SIBLING_AMOUNT_MISSING =
  "Bitte gib den Rabatt in € je weiteres Kind an – nur dieser Betrag wird abgezogen. Oder lass das Feld „Geschwisterrabatt“ leer.";

const text = (max: number, required?: string) => (required ? requiredText(max, required) : optionalText(max));
/** One line (a title, a place): line breaks a browser's text field cannot send become spaces. */
const line = (max: number, required: string) => requiredText(max, required).transform((v) => v.replace(/\s*[\r\n]+\s*/g, " "));

const optionalDate = (message: string) =>
  z
    .string()
    .optional()
    .refine((v) => !v || isIsoDate(v), message)
    .transform((v) => v || null);

const optionalTime = z
  .string()
  .optional()
  .refine((v) => !v || isTime(v), "Bitte gib eine Uhrzeit wie 09:30 an.")
  .transform((v) => v || null);

/** An amount in euros as typed (6 characters at most, comma or point), in cents; empty is 0. */
const euroAmount = (message: string) =>
  z
    .string()
    .max(6, "Höchstens 6 Zeichen")
    .optional()
    .transform((v, ctx) => {
      const cents = parsePriceCents(v ?? "");
      if (cents === null) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return cents;
    });

const ids = z.array(z.coerce.number().int().positive()).default([]);
const flag = z.boolean().default(false);

export const eventSchema = z
  .object({
    title: line(100, "Bitte gib einen Titel an."),
    description: text(1500, "Bitte gib eine Beschreibung an."),
    dateFrom: z.string({ required_error: "Bitte gib ein Startdatum an." }).refine(isIsoDate, "Bitte gib ein gültiges Datum an."),
    timeFrom: z.string({ required_error: "Bitte gib eine Startzeit an." }).refine(isTime, "Bitte gib eine Uhrzeit wie 09:30 an."),
    dateTo: optionalDate("Bitte gib ein gültiges Datum an."),
    timeTo: optionalTime,
    registrationDeadline: optionalDate("Bitte gib ein gültiges Datum an."),
    location: line(100, "Bitte gib einen Ort an."),
    price: euroAmount("Bitte gib einen Betrag wie 149 oder 149,50 an."),
    siblingDiscount: text(50),
    /** The amount taken off for each further child of the same account (DECISIONS.md). */
    siblingDiscountAmount: euroAmount("Bitte gib einen Betrag wie 20 oder 12,50 an."),
    /** How long a place offered to the waiting list is held. */
    offerHours: z.coerce
      .number({ invalid_type_error: "Bitte gib eine ganze Zahl an." })
      .int("Bitte gib eine ganze Zahl an.")
      .min(6, "Mindestens 6 Stunden")
      .max(168, "Höchstens 168 Stunden (eine Woche)")
      .default(48),
    memberRules: text(200),
    ownerIds: ids,
    helperIds: ids,
    noRegistration: flag,
    tshirtSizeRequired: flag,
    swimBadgeRequired: flag,
    permitsRequired: flag,
    onlyStaffVisible: flag,
    capacity: z.coerce
      .number({ invalid_type_error: "Bitte gib eine ganze Zahl an." })
      .int("Bitte gib eine ganze Zahl an.")
      .min(1, "Mindestens 1 Platz (leer lassen für unbegrenzt)")
      .max(10000, "Höchstens 10000 Plätze")
      .optional(),
  })
  .superRefine((value, ctx) => {
    // Only the amount is taken off; a text promising a discount without it misleads parents
    // (docs/decisions/0015-sibling-discount-amount.md).
    if (value.siblingDiscount && value.price > 0 && value.siblingDiscountAmount === 0) {
      ctx.addIssue({ code: "custom", path: ["siblingDiscountAmount"], message: SIBLING_AMOUNT_MISSING });
    }
    if (value.siblingDiscountAmount > value.price) {
      ctx.addIssue({ code: "custom", path: ["siblingDiscountAmount"], message: "Der Rabatt darf nicht höher sein als die Kosten." });
    }
    if (value.dateTo && value.dateTo < value.dateFrom) {
      ctx.addIssue({ code: "custom", path: ["dateTo"], message: "Das Enddatum liegt vor dem Startdatum." });
    }
    if (value.registrationDeadline && value.registrationDeadline > value.dateFrom) {
      ctx.addIssue({ code: "custom", path: ["registrationDeadline"], message: "Der Anmeldeschluss liegt nach dem Startdatum." });
    }
  });

export type EventFormValue = z.infer<typeof eventSchema>;
