// Groups of an event (spec part 2 §4, §5, §8): create, rename, delete, and who is in which group.
// A person is in at most one group per event; the composite keys of group_members make sure the
// group, the registration and the helper belong to the same event. The state rules (no waiting,
// rejected or cancelled registration, no pending or declined helper) are checked here.
import { and, asc, eq, sql } from "drizzle-orm";
import { eventGroups, eventHelpers, groupMembers, participants, registrations, users } from "../../db/schema";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { hasVisibleCharacter, readsAs } from "~/lib/unseen";
import { earlierSubmission, recordSubmission } from "./form-submission.server";

export type GroupRow = { id: number; name: string };
export type GroupTarget = { registrationId: number } | { helperUserId: number };
export type GroupOutcome =
  | { ok: true; groupId: number | null; groupName: string | null; title: string; message: string }
  | { ok: false; status: 400 | 404 | 409; title: string; message: string };

export const GROUP_TEXTS = {
  failedTitle: "Da hat etwas nicht geklappt",
  failedMessage: "Die Freizeit konnten nicht aktualisiert werden",
  notInGroup: "Beim Aktualisieren der Gruppe ist ein Fehler aufgetreten",
  emptyTitle: "Upps",
  emptyMessage: "Du musst einen Gruppennamen angeben...",
  successTitle: "Erfolgreich",
  created: (name: string) => `Du hast erfolgreich die Gruppe "${name}" angelegt.`,
  renamed: (name: string) => `Die Gruppe heißt jetzt "${name}".`,
  deleted: (name: string) => `Die Gruppe "${name}" wurde gelöscht. Ihre Mitglieder sind jetzt ohne Gruppe.`,
  duplicate: (name: string) => `Es gibt schon eine Gruppe "${name}" in dieser Veranstaltung.`,
  tooLong: "Der Gruppenname darf höchstens 50 Zeichen lang sein.",
  reserved: (name: string) => `Der Name "${name}" steht in den Listen für alle, die keiner Gruppe zugeordnet sind. Bitte wähle einen anderen.`,
  assigned: (person: string, name: string) => `Die Zuordnung von ${person} zur Gruppe "${name}" wurde gespeichert.`,
  unassigned: (person: string) => `${person} ist jetzt keiner Gruppe zugeordnet.`,
  registrationRefused:
    "Nur offene oder angenommene Anmeldungen (nicht auf der Warteliste) können einer Gruppe zugeordnet werden.",
  helperRefused: "Nur angenommene Mitarbeiter*innen können einer Gruppe zugeordnet werden.",
  groupGone: "Diese Gruppe gibt es nicht mehr. Bitte lade die Seite neu.",
} as const;

export const GROUP_NAME_MAX = 50;
/** The lists' name for those in no group (camp sheets, the Gruppenliste); no group may take it. */
export const NO_GROUP = "Ohne Gruppe";
/** Nor the lists' choice of no group, which is also the group field's empty state. */
const RESERVED_NAMES = [NO_GROUP, "Keine Gruppe"];

/** The groups of an event by name (one query). */
export function listEventGroups(eventId: number, q: Queryable = db): GroupRow[] {
  return q
    .select({ id: eventGroups.id, name: eventGroups.name })
    .from(eventGroups)
    .where(eq(eventGroups.eventId, eventId))
    .orderBy(sql`${eventGroups.name} collate nocase`, asc(eventGroups.id))
    .all();
}

function failed(status: 400 | 404 | 409, message: string = GROUP_TEXTS.failedMessage): GroupOutcome {
  return { ok: false, status, title: GROUP_TEXTS.failedTitle, message };
}

const INVISIBLE_EDGES = /^[\s\p{Cf}\p{Cc}\u115F\u1160\u2800\u3164\uFFA0]+|[\s\p{Cf}\p{Cc}\u115F\u1160\u2800\u3164\uFFA0]+$/gu;

function cleanName(raw: unknown): { name: string } | { error: GroupOutcome } {
  const name = typeof raw === "string" ? raw.normalize("NFC").replace(/\s+/g, " ").replace(INVISIBLE_EDGES, "") : "";
  if (!name || !hasVisibleCharacter(name)) return { error: { ok: false, status: 400, title: GROUP_TEXTS.emptyTitle, message: GROUP_TEXTS.emptyMessage } };
  if (name.length > GROUP_NAME_MAX) return { error: failed(400, GROUP_TEXTS.tooLong) };
  const reserved = RESERVED_NAMES.find((taken) => readsAs(taken) === readsAs(name));
  if (reserved) return { error: failed(400, GROUP_TEXTS.reserved(reserved)) };
  return { name };
}

/**
 * Another group of the event whose name reads as this one (`readsAs`): the group field matches
 * names without regard to case (and people read them so), so "Wölfe" and "wölfe" would be one
 * group to choose and two sheets in the Gruppenliste. Compared in JavaScript, as SQLite folds only
 * ASCII.
 */
function nameTaken(tx: Queryable, eventId: number, name: string, exceptId = 0) {
  const folded = readsAs(name);
  return tx
    .select({ name: eventGroups.name })
    .from(eventGroups)
    .where(and(eq(eventGroups.eventId, eventId), sql`${eventGroups.id} <> ${exceptId}`))
    .all()
    .some((group) => readsAs(group.name) === folded);
}

/**
 * Creates a group. `form` is the create form's one-time key and who sent it: the same form sent
 * again (a double click) is answered as the first was, and makes no second group.
 */
export function createGroup(eventId: number, rawName: unknown, form: { key: string | null; userId: number } = { key: null, userId: 0 }): GroupOutcome {
  const cleaned = cleanName(rawName);
  if ("error" in cleaned) return cleaned.error;
  const { name } = cleaned;
  const made = (groupId: number | null): GroupOutcome => ({ ok: true, groupId, groupName: name, title: GROUP_TEXTS.successTitle, message: GROUP_TEXTS.created(name) });
  return writeTransaction((tx) => {
    if (earlierSubmission(tx, form.key, form.userId)) return made(null);
    if (nameTaken(tx, eventId, name)) return failed(409, GROUP_TEXTS.duplicate(name));
    const row = tx.insert(eventGroups).values({ eventId, name }).returning({ id: eventGroups.id }).get();
    recordSubmission(tx, form.key, form.userId, `/freizeit/helper/${eventId}`);
    return made(row.id);
  });
}

export function renameGroup(eventId: number, groupId: number, rawName: unknown): GroupOutcome {
  const cleaned = cleanName(rawName);
  if ("error" in cleaned) return cleaned.error;
  const { name } = cleaned;
  return writeTransaction((tx) => {
    const group = findGroup(tx, eventId, groupId);
    if (!group) return failed(404);
    if (nameTaken(tx, eventId, name, groupId)) return failed(409, GROUP_TEXTS.duplicate(name));
    tx.update(eventGroups).set({ name }).where(eq(eventGroups.id, groupId)).run();
    return { ok: true, groupId, groupName: name, title: GROUP_TEXTS.successTitle, message: GROUP_TEXTS.renamed(name) };
  });
}

/** Deletes the group; its members become ungrouped (their rows go with the group). */
export function deleteGroup(eventId: number, groupId: number): GroupOutcome {
  return writeTransaction((tx) => {
    const group = findGroup(tx, eventId, groupId);
    if (!group) return failed(404);
    tx.delete(groupMembers).where(and(eq(groupMembers.eventId, eventId), eq(groupMembers.groupId, groupId))).run();
    tx.delete(eventGroups).where(and(eq(eventGroups.eventId, eventId), eq(eventGroups.id, groupId))).run();
    return { ok: true, groupId: null, groupName: null, title: GROUP_TEXTS.successTitle, message: GROUP_TEXTS.deleted(group.name) };
  });
}

export function findGroup(q: Queryable, eventId: number, groupId: number): GroupRow | undefined {
  if (!Number.isSafeInteger(groupId) || groupId <= 0) return undefined;
  return q
    .select({ id: eventGroups.id, name: eventGroups.name })
    .from(eventGroups)
    .where(and(eq(eventGroups.eventId, eventId), eq(eventGroups.id, groupId)))
    .get();
}

/**
 * Whether the person exists on the event and may be in a group, with their name for the answer
 * (without JavaScript each row saves on its own, so the answer says whose): null = not found.
 */
function assignable(tx: Queryable, eventId: number, target: GroupTarget): { allowed: boolean; name: string } | null {
  if ("registrationId" in target) {
    const row = tx
      .select({ status: registrations.applicationStatus, waiting: registrations.waitingListPosition, firstName: participants.firstName, lastName: participants.lastName })
      .from(registrations)
      .innerJoin(participants, eq(participants.id, registrations.participantId))
      .where(and(eq(registrations.eventId, eventId), eq(registrations.id, target.registrationId)))
      .get();
    if (!row) return null;
    return { allowed: (row.status === "open" || row.status === "accepted") && row.waiting === null, name: `${row.firstName} ${row.lastName}` };
  }
  const row = tx
    .select({ status: eventHelpers.status, firstName: users.firstName, lastName: users.lastName })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, target.helperUserId)))
    .get();
  if (!row) return null;
  return { allowed: row.status === "accepted", name: `${row.firstName} ${row.lastName}` };
}

function memberWhere(eventId: number, target: GroupTarget) {
  return and(
    eq(groupMembers.eventId, eventId),
    "registrationId" in target
      ? eq(groupMembers.registrationId, target.registrationId)
      : eq(groupMembers.helperUserId, target.helperUserId),
  );
}

/**
 * Puts a registration or a helper into one group of the event (groupId null: into none). Taking
 * someone out of a group is always allowed; putting them in only while their state allows it.
 * `actor` is the person deciding (asked by the caller through the permissions module).
 */
export function assignToGroup(
  eventId: number,
  target: GroupTarget,
  groupId: number | null,
  actor: { id: number },
): GroupOutcome {
  void actor;
  return writeTransaction((tx) => {
    const state = assignable(tx, eventId, target);
    if (state === null) return failed(404);
    if (groupId === null) {
      tx.delete(groupMembers).where(memberWhere(eventId, target)).run();
      return { ok: true, groupId: null, groupName: null, title: GROUP_TEXTS.successTitle, message: GROUP_TEXTS.unassigned(state.name) };
    }
    const group = findGroup(tx, eventId, groupId);
    if (!group) return failed(404, GROUP_TEXTS.groupGone);
    if (!state.allowed) {
      return failed(409, "registrationId" in target ? GROUP_TEXTS.registrationRefused : GROUP_TEXTS.helperRefused);
    }
    tx.delete(groupMembers).where(memberWhere(eventId, target)).run();
    tx.insert(groupMembers)
      .values({
        eventId,
        groupId: group.id,
        registrationId: "registrationId" in target ? target.registrationId : null,
        helperUserId: "helperUserId" in target ? target.helperUserId : null,
      })
      .run();
    const check = tx.select({ groupId: groupMembers.groupId }).from(groupMembers).where(memberWhere(eventId, target)).get();
    if (check?.groupId !== group.id) return failed(409, GROUP_TEXTS.notInGroup);
    return { ok: true, groupId: group.id, groupName: group.name, title: GROUP_TEXTS.successTitle, message: GROUP_TEXTS.assigned(state.name, group.name) };
  });
}

/** The groups of an event with their number of members (one query), for the group manager. */
export function listGroupsWithCounts(eventId: number, q: Queryable = db) {
  return q
    .select({ id: eventGroups.id, name: eventGroups.name, members: sql<number>`count(${groupMembers.id})` })
    .from(eventGroups)
    .leftJoin(groupMembers, eq(groupMembers.groupId, eventGroups.id))
    .where(eq(eventGroups.eventId, eventId))
    .groupBy(eventGroups.id)
    .orderBy(sql`${eventGroups.name} collate nocase`, asc(eventGroups.id))
    .all();
}
