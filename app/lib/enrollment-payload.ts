// The enrolment form's state as the server sends it back (without JavaScript every button is a
// round trip): boxes added, removed, a child's saved answers taken over, nothing typed lost.
import { guardianBoxIndex, NO_GUARDIAN, PERMISSIONS, type RawBox } from "./enrollment-rules";

export type Payload = Record<string, unknown> & { boxes: RawBox[]; sepa?: Record<string, unknown> };
export const MAX_BOXES = 10;

/** A field of the payload by its form name: boxes[1].child.firstName. */
export function valueAt(payload: Record<string, unknown>, path: string): string {
  const value = path.split(".").reduce<unknown>((node, key) => {
    const match = /^(\w+)\[(\d+)\]$/.exec(key);
    if (match) return ((node as Record<string, unknown[]>)?.[match[1]] ?? [])[Number(match[2])];
    return (node as Record<string, unknown>)?.[key];
  }, payload);
  return typeof value === "string" ? value : "";
}

/** A new box: a new child, and the guardian of the box before it (typed once for siblings). */
export function addBox(payload: Payload, saveKey: string) {
  if (payload.boxes.length >= MAX_BOXES) return;
  const index = payload.boxes.length - 1;
  const previous = payload.boxes[index];
  const guardian = typeof previous?.guardian === "string" ? previous.guardian : "";
  // 'Keine (ab 18 Jahren)' fitted the child before; the new child chooses for itself.
  const next = guardian === "neu" ? `box-${index}` : guardian === NO_GUARDIAN ? "" : guardian;
  payload.boxes.push({ participant: "neu", answersFor: "neu", saveKey, guardian: next });
}

/** The child a new box starts with: the first saved one not registered yet and chosen in no box. */
export function nextSavedChild<T extends { id: number }>(children: T[], registered: number[], boxes: RawBox[] = []): T | undefined {
  const chosen = new Set(boxes.map((box) => box.participant));
  return children.find((c) => !registered.includes(c.id) && !chosen.has(String(c.id)));
}

/** Removes a box; boxes that named its typed guardian get it copied, so nothing typed is lost. */
export function removeBox(payload: Payload, index: number) {
  const boxes = payload.boxes;
  if (boxes.length <= 1 || !Number.isInteger(index) || index < 0 || index >= boxes.length) return;
  const [removed] = boxes.splice(index, 1);
  let heir: number | null = null;
  boxes.forEach((box, i) => {
    const other = guardianBoxIndex(box.guardian);
    if (other === null) return;
    if (other === index) {
      if (heir === null) {
        heir = i;
        box.guardian = "neu";
        box.newGuardian = removed.newGuardian;
      } else box.guardian = `box-${heir}`;
    } else if (other > index) box.guardian = `box-${other - 1}`;
  });
}

type Defaults = {
  id: number;
  tshirtSize: string | null;
  swimBadge: string | null;
  specialNeeds: string;
  nameOfInsured: string;
  birthdateOfInsured: string | null;
  /** The guardian of the child's latest registration. */
  lastGuardianId?: number | null;
} & Partial<Record<(typeof PERMISSIONS)[number], boolean | null>>;

/**
 * The guardian a box starts with: the one this child had last time, else the account's only one,
 * else none chosen ('Bitte wählen') — never 'Keine', which would be wrong for every minor.
 */
export function defaultGuardian(child: { lastGuardianId?: number | null } | undefined, guardianIds: number[]): string {
  if (child?.lastGuardianId && guardianIds.includes(child.lastGuardianId)) return String(child.lastGuardianId);
  return guardianIds.length === 1 ? String(guardianIds[0]) : "";
}

/** The answers a box starts with for a child: its latest ones, kept on the child's record. */
export function childAnswers(child: Defaults | undefined): Record<string, string> {
  const answers: Record<string, string> = {
    tshirtSize: child?.tshirtSize ?? "",
    swimBadge: child?.swimBadge ?? "",
    specialNeeds: child?.specialNeeds ?? "",
    nameOfInsured: child?.nameOfInsured ?? "",
    birthdateOfInsured: child?.birthdateOfInsured ?? "",
  };
  for (const field of PERMISSIONS) {
    const value = child?.[field];
    answers[field] = value === true ? "ja" : value === false ? "nein" : "";
  }
  return answers;
}

/**
 * Boxes whose child changed since the answers were shown get that child's saved answers, and its
 * last guardian (or the account's only one when none is chosen yet).
 */
export function takeOverChildAnswers(payload: Payload, children: Defaults[], guardianIds: number[] = []) {
  for (const box of payload.boxes) {
    const participant = typeof box.participant === "string" ? box.participant : "";
    if (box.answersFor === participant) continue;
    const child = children.find((c) => String(c.id) === participant);
    Object.assign(box, childAnswers(child));
    box.answersFor = participant;
    const guardian = typeof box.guardian === "string" ? box.guardian : "";
    if (child?.lastGuardianId || !guardian) box.guardian = defaultGuardian(child, guardianIds) || guardian;
  }
}

/**
 * Boxes sent with another child chosen than the one whose answers they showed (without
 * JavaScript, 'Auswahl übernehmen' not pressed): an answer still as the shown child's becomes the
 * chosen child's saved one, an answer the parent changed stays. Returns each such box's index with
 * both children, so that the form asks to check before anyone is enrolled (parents' walkthrough:
 * a brother was enrolled with his sister's allergy).
 */
export function switchedChildAnswers<T extends Defaults & { firstName: string }>(payload: Payload, children: T[]) {
  const switched: { index: number; shown: T | undefined; chosen: T | undefined }[] = [];
  payload.boxes.forEach((box, index) => {
    const participant = typeof box.participant === "string" ? box.participant : "";
    if (typeof box.answersFor !== "string" || box.answersFor === participant) return;
    const shown = children.find((c) => String(c.id) === box.answersFor);
    const chosen = children.find((c) => String(c.id) === participant);
    const before = childAnswers(shown);
    for (const [field, value] of Object.entries(childAnswers(chosen))) {
      if ((typeof box[field] === "string" ? box[field] : "") === before[field]) box[field] = value;
    }
    box.answersFor = participant;
    switched.push({ index, shown, chosen });
  });
  return switched;
}

/** The guardians typed into boxes (not saved yet), offered to the other boxes: index → name. */
export function typedGuardians(boxes: RawBox[]) {
  const typed: Record<number, string> = {};
  boxes.forEach((box, index) => {
    if (box.guardian !== "neu") return;
    const g = (box.newGuardian ?? {}) as Record<string, unknown>;
    const name = [g.firstName, g.lastName].filter((v) => typeof v === "string" && v.trim()).join(" ");
    typed[index] = name || "Neue Person";
  });
  return typed;
}
