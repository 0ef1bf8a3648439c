// The form of creating and editing an event.
import { z } from "zod";
import { isIsoDate, isTime } from "~/lib/dates";
import { parsePriceCents } from "~/lib/event-rules";
import { optionalText, requiredLines, requiredText } from "./fields";

export const INVALID_FORM = "Mindestens ein Feld ist nicht valide";
export const SIBLING_AMOUNT_MISSING =
  "Bitte geben Sie den Rabatt in € je weiteres Kind an – nur dieser Betrag wird abgezogen. Oder lassen Sie das Feld „Geschwisterrabatt“ leer.";

/*
 * Every message of the form comes in one answer: zod runs the checks across fields (the deadline
 * against the start date) only when no field failed fatally, as a missing field or a failed check
 * before a transform does. So here an empty field is "" and fails its own check, transforms come
 * before checks, and a number's or an amount's checks are part of its transform.
 */

/** A field of one line that must be there (line breaks a text field cannot send become spaces). */
const required = (max: number, message: string) => requiredText(max, message).default("");
/** A date or time that must be there: its message when empty, another when not valid. */
const requiredWhen = (check: (v: string) => boolean, missing: string, invalid: string) =>
  z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      if (!check(v)) ctx.addIssue({ code: "custom", message: v ? invalid : missing });
    });

const optionalDate = (message: string) =>
  z
    .string()
    .optional()
    .transform((v) => v || null)
    .refine((v) => !v || isIsoDate(v), message);

const optionalTime = z
  .string()
  .optional()
  .transform((v) => v || null)
  .refine((v) => !v || isTime(v), "Bitte geben Sie eine Uhrzeit wie 09:30 an.");

/** An amount in euros as typed (6 characters at most, comma or point), in cents; empty is 0. */
const euroAmount = (message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const cents = (v ?? "").length > 6 ? null : parsePriceCents(v ?? "");
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: (v ?? "").length > 6 ? "Höchstens 6 Zeichen" : message });
        return z.NEVER;
      }
      return cents;
    });

/** A whole number in a range, or nothing (`empty`); its checks are part of its transform. */
function wholeNumber<E extends number | undefined>(min: number, tooSmall: string, max: number, tooBig: string, empty: E) {
  return z
    .string()
    .optional()
    .transform((v, ctx): number | E => {
      if (v === undefined) return empty;
      const n = Number(v);
      const message = !Number.isInteger(n) ? "Bitte geben Sie eine ganze Zahl an." : n < min ? tooSmall : n > max ? tooBig : null;
      if (message) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });
}

const ids = z.array(z.coerce.number().int().positive()).default([]);
const flag = z.boolean().default(false);

export const eventSchema = z
  .object({
    title: required(100, "Bitte geben Sie einen Titel an."),
    description: requiredLines(1500, "Bitte geben Sie eine Beschreibung an.").default(""),
    dateFrom: requiredWhen(isIsoDate, "Bitte geben Sie ein Startdatum an.", "Bitte geben Sie ein gültiges Datum an."),
    timeFrom: requiredWhen(isTime, "Bitte geben Sie eine Startzeit an.", "Bitte geben Sie eine Uhrzeit wie 09:30 an."),
    dateTo: optionalDate("Bitte geben Sie ein gültiges Datum an."),
    timeTo: optionalTime,
    registrationDeadline: optionalDate("Bitte geben Sie ein gültiges Datum an."),
    location: required(100, "Bitte geben Sie einen Ort an."),
    price: euroAmount("Bitte geben Sie einen Betrag wie 149 oder 149,50 an."),
    siblingDiscount: optionalText(50),
    /** The amount taken off for each further child of the same account (DECISIONS.md). */
    siblingDiscountAmount: euroAmount("Bitte geben Sie einen Betrag wie 20 oder 12,50 an."),
    /** How long a place offered to the waiting list is held. */
    offerHours: wholeNumber(6, "Mindestens 6 Stunden", 168, "Höchstens 168 Stunden (eine Woche)", 48),
    memberRules: optionalText(200),
    ownerIds: ids,
    helperIds: ids,
    noRegistration: flag,
    tshirtSizeRequired: flag,
    swimBadgeRequired: flag,
    permitsRequired: flag,
    onlyStaffVisible: flag,
    capacity: wholeNumber(1, "Mindestens 1 Platz (leer lassen für unbegrenzt)", 10000, "Höchstens 10000 Plätze", undefined),
  })
  .superRefine((value, ctx) => {
    // Also called when a field failed its own check (see `required`): each rule below uses only
    // values that passed theirs.
    const { price, siblingDiscountAmount: amount, dateFrom, dateTo, registrationDeadline: deadline } = value;
    const prices = typeof price === "number" && typeof amount === "number";
    const startValid = isIsoDate(dateFrom);
    // Only the amount is taken off; a text promising a discount without it misleads parents
    // (docs/decisions/0015-sibling-discount-amount.md).
    if (prices && value.siblingDiscount && price > 0 && amount === 0) {
      ctx.addIssue({ code: "custom", path: ["siblingDiscountAmount"], message: SIBLING_AMOUNT_MISSING });
    }
    if (prices && amount > price) {
      ctx.addIssue({ code: "custom", path: ["siblingDiscountAmount"], message: "Der Rabatt darf nicht höher sein als die Kosten." });
    }
    if (startValid && dateTo && isIsoDate(dateTo) && dateTo < dateFrom) {
      ctx.addIssue({ code: "custom", path: ["dateTo"], message: "Das Enddatum darf nicht vor dem Startdatum liegen." });
    }
    // On one day (the same end date, or none) the end cannot come before the start: the page would
    // say "10:00 Uhr bis 09:00 Uhr" and a calendar would end it before it began.
    const oneDay = !dateTo || dateTo === dateFrom;
    if (oneDay && isTime(value.timeFrom) && value.timeTo && isTime(value.timeTo) && value.timeTo < value.timeFrom) {
      ctx.addIssue({ code: "custom", path: ["timeTo"], message: "Die Endzeit darf nicht vor der Startzeit liegen." });
    }
    if (startValid && deadline && isIsoDate(deadline) && deadline > dateFrom) {
      ctx.addIssue({ code: "custom", path: ["registrationDeadline"], message: "Der Anmeldeschluss darf nicht nach dem Startdatum liegen." });
    }
  });

export type EventFormValue = z.infer<typeof eventSchema>;
