// Many people into groups at once: the participant or helper list's form without JavaScript
// (group-select.tsx) sends every row with the group the page showed and the one chosen. Only a
// changed row is written, and only while its stored group is still the one the page showed, so
// another leader's change in the meantime is not overwritten. The group rules are those of
// assignToGroup (group.server.ts). One transaction and a constant number of statements for any
// number of rows; the answer names what was saved and what was not, and why.
import { and, eq, inArray } from "drizzle-orm";
import { eventHelpers, groupMembers, participants, registrations, users } from "../../db/schema";
import { writeTransaction, type Queryable } from "~/services/db.server";
import type { Flash } from "~/services/flash.server";
import { GROUP_TEXTS, listEventGroups, type GroupTarget } from "./group.server";

export type RowChange = { target: GroupTarget; shown: number | null; chosen: number | null };

type Person = { name: string; allowed: boolean; current: number | null };

/** At most this many names in one sentence of the answer (it travels in a cookie). */
const NAMED = 5;

function key(target: GroupTarget) {
  return "registrationId" in target ? `r${target.registrationId}` : `h${target.helperUserId}`;
}

/** The rows' registrations and helpers, apart. */
function idsByKind(rows: RowChange[]) {
  return {
    registrationIds: rows.flatMap((c) => ("registrationId" in c.target ? [c.target.registrationId] : [])),
    helperIds: rows.flatMap((c) => ("helperUserId" in c.target ? [c.target.helperUserId] : [])),
  };
}

/** The people of the changed rows with their state and stored group: two statements at most. */
function peopleOf(tx: Queryable, eventId: number, changes: RowChange[]) {
  const people = new Map<string, Person>();
  const { registrationIds, helperIds } = idsByKind(changes);
  if (registrationIds.length > 0) {
    const rows = tx
      .select({ id: registrations.id, status: registrations.applicationStatus, waiting: registrations.waitingListPosition, first: participants.firstName, last: participants.lastName, current: groupMembers.groupId })
      .from(registrations)
      .innerJoin(participants, eq(participants.id, registrations.participantId))
      .leftJoin(groupMembers, and(eq(groupMembers.eventId, eventId), eq(groupMembers.registrationId, registrations.id)))
      .where(and(eq(registrations.eventId, eventId), inArray(registrations.id, registrationIds)))
      .all();
    for (const r of rows) {
      people.set(`r${r.id}`, { name: `${r.first} ${r.last}`, allowed: (r.status === "open" || r.status === "accepted") && r.waiting === null, current: r.current });
    }
  }
  if (helperIds.length > 0) {
    const rows = tx
      .select({ id: eventHelpers.userId, status: eventHelpers.status, first: users.firstName, last: users.lastName, current: groupMembers.groupId })
      .from(eventHelpers)
      .innerJoin(users, eq(users.id, eventHelpers.userId))
      .leftJoin(groupMembers, and(eq(groupMembers.eventId, eventId), eq(groupMembers.helperUserId, eventHelpers.userId)))
      .where(and(eq(eventHelpers.eventId, eventId), inArray(eventHelpers.userId, helperIds)))
      .all();
    for (const h of rows) people.set(`h${h.id}`, { name: `${h.first} ${h.last}`, allowed: h.status === "accepted", current: h.current });
  }
  return people;
}

function names(list: string[]) {
  if (list.length <= NAMED) return list.join(", ");
  return `${list.slice(0, NAMED).join(", ")} und ${list.length - NAMED} weitere`;
}

type Sorted = {
  saved: { name: string; group: string | null }[];
  refusedChildren: string[];
  refusedHelpers: string[];
  changedMeanwhile: string[];
  groupGone: string[];
  gone: number;
};

function answer(s: Sorted): Flash {
  const problems = s.refusedChildren.length + s.refusedHelpers.length + s.changedMeanwhile.length + s.groupGone.length + s.gone;
  if (s.saved.length === 1 && problems === 0) {
    const [{ name, group }] = s.saved;
    return { kind: "success", title: GROUP_TEXTS.successTitle, message: group === null ? GROUP_TEXTS.unassigned(name) : GROUP_TEXTS.assigned(name, group) };
  }
  const sentences: string[] = [];
  if (s.saved.length > NAMED) sentences.push(`Gespeichert: ${s.saved.length} Zuordnungen.`);
  else if (s.saved.length > 0) sentences.push(`Gespeichert: ${s.saved.map((p) => (p.group === null ? `${p.name} ohne Gruppe` : `${p.name} in "${p.group}"`)).join(", ")}.`);
  if (s.refusedChildren.length > 0) sentences.push(`Nicht gespeichert: ${names(s.refusedChildren)} – ${GROUP_TEXTS.registrationRefused}`);
  if (s.refusedHelpers.length > 0) sentences.push(`Nicht gespeichert: ${names(s.refusedHelpers)} – ${GROUP_TEXTS.helperRefused}`);
  if (s.changedMeanwhile.length > 0) {
    sentences.push(`Nicht gespeichert, weil jemand anderes die Gruppe inzwischen geändert hat: ${names(s.changedMeanwhile)}. Bitte prüfe diese Zeilen.`);
  }
  if (s.groupGone.length > 0) sentences.push(`Nicht gespeichert, weil es die Gruppe nicht mehr gibt: ${names(s.groupGone)}.`);
  if (s.gone === 1) sentences.push("Nicht gespeichert: 1 Eintrag steht nicht mehr auf der Liste.");
  if (s.gone > 1) sentences.push(`Nicht gespeichert: ${s.gone} Einträge stehen nicht mehr auf der Liste.`);
  const title = problems === 0 ? GROUP_TEXTS.successTitle : s.saved.length > 0 ? "Nicht alles gespeichert" : GROUP_TEXTS.failedTitle;
  return { kind: problems === 0 ? "success" : "danger", title, message: sentences.join(" ") };
}

/** Writes the changed rows that may be written (see the file's head) and answers with the list's flash. */
export function assignRowsToGroups(eventId: number, rows: RowChange[]): Flash {
  const changes = rows.filter((row) => row.chosen !== row.shown);
  if (changes.length === 0) return { kind: "info", title: GROUP_TEXTS.emptyTitle, message: "Du hast keine Gruppe geändert." };
  return writeTransaction((tx) => {
    const groups = new Map(listEventGroups(eventId, tx).map((g) => [g.id, g.name]));
    const people = peopleOf(tx, eventId, changes);
    const sorted: Sorted = { saved: [], refusedChildren: [], refusedHelpers: [], changedMeanwhile: [], groupGone: [], gone: 0 };
    const written: RowChange[] = [];
    for (const change of changes) {
      const person = people.get(key(change.target));
      if (!person) sorted.gone++;
      else if (person.current !== change.shown) {
        const now = person.current === null ? "jetzt ohne Gruppe" : `jetzt in "${groups.get(person.current) ?? ""}"`;
        sorted.changedMeanwhile.push(`${person.name} (${now})`);
      } else if (change.chosen !== null && !groups.has(change.chosen)) sorted.groupGone.push(person.name);
      else if (change.chosen !== null && !person.allowed) ("registrationId" in change.target ? sorted.refusedChildren : sorted.refusedHelpers).push(person.name);
      else {
        written.push(change);
        sorted.saved.push({ name: person.name, group: change.chosen === null ? null : groups.get(change.chosen)! });
      }
    }
    writeRows(tx, eventId, written);
    return answer(sorted);
  });
}

/** Takes the written rows out of their groups and puts those with a group in: three statements at most. */
function writeRows(tx: Queryable, eventId: number, written: RowChange[]) {
  const { registrationIds, helperIds } = idsByKind(written);
  if (registrationIds.length > 0) tx.delete(groupMembers).where(and(eq(groupMembers.eventId, eventId), inArray(groupMembers.registrationId, registrationIds))).run();
  if (helperIds.length > 0) tx.delete(groupMembers).where(and(eq(groupMembers.eventId, eventId), inArray(groupMembers.helperUserId, helperIds))).run();
  const members = written.flatMap((c) =>
    c.chosen === null
      ? []
      : [{ eventId, groupId: c.chosen, registrationId: "registrationId" in c.target ? c.target.registrationId : null, helperUserId: "helperUserId" in c.target ? c.target.helperUserId : null }],
  );
  if (members.length > 0) tx.insert(groupMembers).values(members).run();
}
