// The rules of one enrolment's boxes (spec part 2, §5; DECISIONS.md, birth dates): checked all at
// once, so that a parent gets every message in one round. Pure: the route checks a form with it
// before the transaction, and the transaction checks again with what it reads under its lock.
import { needsGuardian } from "./age";
import { isIsoDate } from "./dates";
import { newChildSchema, newGuardianSchema } from "~/schemas/enrollment";
import { INVALID_BIRTH_DATE } from "~/schemas/fields";

export type RawBox = Record<string, unknown>;
export type Problems = Record<string, string[]>;

export type RuleContext = {
  event: { dateFrom: string; tshirtSizeRequired: boolean; swimBadgeRequired: boolean; permitsRequired: boolean };
  /** Today in Europe/Berlin, YYYY-MM-DD. */
  today: string;
  children: Map<number, { id: number; firstName: string; lastName: string; birthDate: string }>;
  guardianIds: Set<number>;
  /** Children of the account already registered for the event. */
  registeredIds: Set<number>;
};

export const PERMISSIONS = ["allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe"] as const;
export const CHOOSE_CHILD = "Bitte wähle ein Kind aus oder lege eines an.";
/** The permission questions as the form asks them; each unanswered one is named in its message. */
export const PERMISSION_QUESTIONS: Record<(typeof PERMISSIONS)[number], string> = {
  allowedToWander: "Darf wandern gehen",
  allowedToSwim: "Darf schwimmen gehen",
  canSwim: "Kann schwimmen",
  allowedToCanoe: "Darf Kanu fahren",
};
/** The guardian select's explicit 'Keine (ab 18 Jahren)'; an empty value is 'Bitte wählen'. */
export const NO_GUARDIAN = "keine";

/** A guardian typed into another box: `box-{index}` (created once, with the enrolment). */
export function guardianBoxIndex(value: unknown) {
  const match = typeof value === "string" ? /^box-(\d{1,2})$/.exec(value) : null;
  return match ? Number(match[1]) : null;
}

/**
 * The message for a birth date that is no date of the years a form takes (a child saved before
 * they were checked), in the future or after the event's start; null when it is fine.
 */
export function birthDateProblem(date: string, today: string, eventStart: string) {
  if (!isIsoDate(date)) return INVALID_BIRTH_DATE;
  if (date > today) return "Das Geburtsdatum darf nicht in der Zukunft liegen.";
  if (date > eventStart) return "Das Geburtsdatum darf nicht nach dem Beginn der Veranstaltung liegen.";
  return null;
}

const str = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const obj = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});

/** The fields of a nested form object as the schemas expect them: an empty field is a missing one. */
export function filledFields(value: unknown) {
  return Object.fromEntries(Object.entries(obj(value)).filter(([, v]) => !(typeof v === "string" && v.trim() === "")));
}

export function checkBoxes(boxes: RawBox[], ctx: RuleContext): Problems {
  const problems: Problems = {};
  const add = (path: string, message: string) => {
    if (!problems[path]?.includes(message)) (problems[path] ??= []).push(message);
  };
  const chosen = new Set<number>();

  boxes.forEach((box, index) => {
    const at = (field: string) => `boxes[${index}].${field}`;
    const participant = str(box.participant);
    /** Whose age decides whether a guardian is needed. */
    let child: { firstName: string; birthDate: string } | null = null;
    if (participant === "neu") {
      const parsed = newChildSchema.safeParse(filledFields(box.child));
      if (!parsed.success) for (const [field, messages] of Object.entries(parsed.error.flatten().fieldErrors)) for (const m of messages ?? []) add(at(`child.${field}`), m);
      const typed = obj(box.child);
      const birthDate = str(typed.birthDate);
      const wrong = isIsoDate(birthDate) ? birthDateProblem(birthDate, ctx.today, ctx.event.dateFrom) : null;
      if (wrong) add(at("child.birthDate"), wrong);
      // A valid birth date decides, whatever else of the child is missing: the guardian's message
      // comes in the same answer as the others.
      else if (isIsoDate(birthDate)) child = { firstName: str(typed.firstName).trim() || "Das Kind", birthDate };
    } else {
      const existing = /^\d{1,12}$/.test(participant) ? ctx.children.get(Number(participant)) : undefined;
      if (!existing) {
        // Someone else's child, or a made-up id: the same answer as for nothing chosen.
        add(at("participant"), CHOOSE_CHILD);
      } else if (ctx.registeredIds.has(existing.id)) {
        add(at("participant"), `${existing.firstName} ${existing.lastName} ist bereits für diese Veranstaltung angemeldet.`);
      } else if (chosen.has(existing.id)) {
        add(at("participant"), `${existing.firstName} steht schon in einem anderen Kasten.`);
      } else {
        chosen.add(existing.id);
        const wrong = birthDateProblem(existing.birthDate, ctx.today, ctx.event.dateFrom);
        if (wrong) add(at("participant"), `${existing.firstName}: ${wrong} Bitte korrigiere es im Konto.`);
        else child = existing;
      }
    }

    const guardian = str(box.guardian) === NO_GUARDIAN ? "" : str(box.guardian);
    const other = guardianBoxIndex(guardian);
    if (guardian === "neu") {
      const parsed = newGuardianSchema.safeParse(filledFields(box.newGuardian));
      if (!parsed.success) for (const [field, messages] of Object.entries(parsed.error.flatten().fieldErrors)) for (const m of messages ?? []) add(at(`newGuardian.${field}`), m);
    } else if (other !== null) {
      if (other === index || str(boxes[other]?.guardian) !== "neu") add(at("guardian"), "Bitte wähle eine erziehungsberechtigte Person aus oder lege eine an.");
    } else if (guardian) {
      if (!/^\d{1,12}$/.test(guardian) || !ctx.guardianIds.has(Number(guardian))) add(at("guardian"), "Bitte wähle eine erziehungsberechtigte Person aus oder lege eine an.");
    } else if (child && needsGuardian(child.birthDate, ctx.event.dateFrom)) {
      add(at("guardian"), `${child.firstName} ist bei Beginn der Veranstaltung noch nicht 18: Bitte wähle eine erziehungsberechtigte Person.`);
    }

    if (ctx.event.tshirtSizeRequired && !str(box.tshirtSize)) add(at("tshirtSize"), "Bitte wähle eine T-Shirt-Größe.");
    if (ctx.event.swimBadgeRequired && !str(box.swimBadge)) add(at("swimBadge"), "Bitte wähle ein Schwimmabzeichen.");
    if (ctx.event.permitsRequired) {
      for (const field of PERMISSIONS) if (!str(box[field])) add(at(field), `„${PERMISSION_QUESTIONS[field]}?“ Bitte wähle Ja oder Nein.`);
    }
    const insured = str(box.birthdateOfInsured);
    const wrongInsured = insured && isIsoDate(insured) ? birthDateProblem(insured, ctx.today, ctx.event.dateFrom) : null;
    if (wrongInsured) add(at("birthdateOfInsured"), wrongInsured);
  });
  return problems;
}

/** The lists of messages in one; a field already named by an earlier list keeps that list's. */
export function mergeProblems(...lists: Problems[]): Problems {
  const merged: Problems = {};
  for (const list of lists) {
    for (const [path, messages] of Object.entries(list)) if (!merged[path] && messages.length) merged[path] = [...messages];
  }
  return merged;
}
