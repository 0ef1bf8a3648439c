// Camp sheets (issue 11 item 5; DECISIONS.md 'Camp sheets'): per group the children of accepted
// registrations with age at the start, guardian and both phones, special needs, swim badge,
// permission answers and insurance, and the group's helpers with phone. Four queries whatever
// the number of children.
import { and, asc, eq } from "drizzle-orm";
import { eventHelpers, events, groupMembers, guardians, participants, registrations, users } from "../../db/schema";
import { ageOn } from "~/lib/age";
import { listEventGroups, NO_GROUP } from "~/models/group.server";
import { db, type Queryable } from "~/services/db.server";

export type SheetChild = {
  registrationId: number;
  firstName: string;
  lastName: string;
  birthDate: string;
  age: number;
  guardianName: string | null;
  mobilePhone: string;
  phone: string;
  /** No guardian with a phone number: 'Notfallkontakt fehlt!'. */
  noEmergencyContact: boolean;
  specialNeeds: string;
  swimBadge: string | null;
  allowedToWander: boolean | null;
  allowedToSwim: boolean | null;
  canSwim: boolean | null;
  allowedToCanoe: boolean | null;
  nameOfInsured: string;
  birthdateOfInsured: string | null;
};
export type SheetHelper = { userId: number; firstName: string; lastName: string; phone: string | null };
export type SheetGroup = { id: number | null; name: string; children: SheetChild[]; helpers: SheetHelper[] };

const collator = new Intl.Collator("de", { sensitivity: "base" });
const byName = (a: { lastName: string; firstName: string }, b: typeof a) =>
  collator.compare(a.lastName, b.lastName) || collator.compare(a.firstName, b.firstName);

/**
 * The sheets of the event: one per group (by name), then 'Ohne Gruppe' when someone has none.
 * With `onlyGroupId` just that group's sheet; null when the event or that group does not exist.
 */
export function getCampSheets(eventId: number, onlyGroupId: number | null = null, q: Queryable = db) {
  const event = q
    .select({ id: events.id, title: events.title, dateFrom: events.dateFrom, dateTo: events.dateTo, location: events.location })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
  if (!event) return null;
  const groups = listEventGroups(eventId, q);
  if (onlyGroupId !== null && !groups.some((g) => g.id === onlyGroupId)) return null;

  const childRows = q
    .select({
      registrationId: registrations.id,
      groupId: groupMembers.groupId,
      firstName: participants.firstName,
      lastName: participants.lastName,
      birthDate: participants.birthDate,
      guardianFirstName: guardians.firstName,
      guardianLastName: guardians.lastName,
      mobilePhone: guardians.mobilePhone,
      phone: guardians.phone,
      specialNeeds: registrations.specialNeeds,
      swimBadge: registrations.swimBadge,
      allowedToWander: registrations.allowedToWander,
      allowedToSwim: registrations.allowedToSwim,
      canSwim: registrations.canSwim,
      allowedToCanoe: registrations.allowedToCanoe,
      nameOfInsured: registrations.nameOfInsured,
      birthdateOfInsured: registrations.birthdateOfInsured,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .leftJoin(guardians, eq(guardians.id, registrations.guardianId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, registrations.eventId), eq(groupMembers.registrationId, registrations.id)))
    .where(and(eq(registrations.eventId, eventId), eq(registrations.applicationStatus, "accepted")))
    .orderBy(asc(registrations.id))
    .all();

  const helperRows = q
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, phone: users.phone, groupId: groupMembers.groupId })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, eventHelpers.eventId), eq(groupMembers.helperUserId, eventHelpers.userId)))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.status, "accepted")))
    .all();

  // Explicit fields (no rest/spread): this runs for every child of a large camp.
  const children = childRows.map((row) => {
    const mobile = (row.mobilePhone ?? "").trim();
    const landline = (row.phone ?? "").trim();
    const child: SheetChild & { groupId: number | null } = {
      registrationId: row.registrationId,
      groupId: row.groupId,
      firstName: row.firstName,
      lastName: row.lastName,
      birthDate: row.birthDate,
      age: ageOn(row.birthDate, event.dateFrom),
      guardianName: row.guardianFirstName === null ? null : `${row.guardianFirstName} ${row.guardianLastName}`,
      mobilePhone: mobile,
      phone: landline,
      noEmergencyContact: !mobile && !landline,
      specialNeeds: row.specialNeeds,
      swimBadge: row.swimBadge,
      allowedToWander: row.allowedToWander,
      allowedToSwim: row.allowedToSwim,
      canSwim: row.canSwim,
      allowedToCanoe: row.allowedToCanoe,
      nameOfInsured: row.nameOfInsured,
      birthdateOfInsured: row.birthdateOfInsured,
    };
    return child;
  });

  const sheets: SheetGroup[] = groups.map((g) => ({
    id: g.id,
    name: g.name,
    children: children.filter((c) => c.groupId === g.id).sort(byName),
    helpers: helperRows.filter((h) => h.groupId === g.id).sort(byName),
  }));
  const loose: SheetGroup = {
    id: null,
    name: NO_GROUP,
    children: children.filter((c) => c.groupId === null).sort(byName),
    helpers: helperRows.filter((h) => h.groupId === null).sort(byName),
  };
  if (loose.children.length + loose.helpers.length > 0 || groups.length === 0) sheets.push(loose);
  return { event, sheets: onlyGroupId === null ? sheets : sheets.filter((s) => s.id === onlyGroupId) };
}

