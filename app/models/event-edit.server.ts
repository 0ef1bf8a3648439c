// Events: creating, editing (lead persons, helpers picked in the form, files) and deleting.
import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { eventHelpers, eventOwners, events, files, registrations, users } from "../../db/schema";
import { berlinToInstant } from "~/lib/dates";
import { displayFileName } from "~/lib/file-names";
import { plansMoved } from "~/lib/event-rules";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { removeStoredFile, type StoredFile, type UploadKind } from "~/services/uploads.server";
import { setEventFormHelpers } from "./helper.server";
import { recordAudit } from "./audit.server";
import { tellEventCancelled, withdrawEventMails } from "./event-cancellation.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";
import type { PersonName } from "./event.server";
import type { SessionUser } from "./user.server";
import { placesTaken } from "./registration-change.server";
import { fitOffersToStart, offerFreePlaces } from "./waiting-list.server";

/** Values of the form the saved event refuses as it stands (the places held, its start): said at
 * their fields, all in one answer. */
export class EventFormRefusal extends Error {
  constructor(readonly fieldErrors: Partial<Record<"capacity" | "dateFrom", string[]>>) {
    super(Object.values(fieldErrors).flat().join(" "));
  }
}

/**
 * What the saved event refuses of the form (inside the transaction that saves, and before it when
 * another field is refused, so that the form says all in one answer): fewer places than are held,
 * and a start moved into the past while the event has not begun (a wrong year typed on a phone
 * ended its open offers at once and made it a past event, which nobody edits any more).
 */
export function refusalsOfSavedEvent(tx: Queryable, eventId: number, value: { capacity?: number | null; startsAt?: Date }, now = new Date()) {
  const errors: Partial<Record<"capacity" | "dateFrom", string[]>> = {};
  const places = value.capacity === undefined ? null : fewerPlacesThanHeld(tx, eventId, value.capacity);
  if (places) errors.capacity = [places];
  // Within the minute is now ("we start now": the form's times are whole minutes).
  if (value.startsAt && value.startsAt.getTime() <= now.getTime() - 60_000) {
    const saved = tx.select({ startsAt: events.startsAt }).from(events).where(eq(events.id, eventId)).get();
    if (saved && saved.startsAt.getTime() > now.getTime()) errors.dateFrom = [START_INTO_PAST];
  }
  return errors;
}

export const START_INTO_PAST = "Der Beginn liegt in der Vergangenheit. Eine Veranstaltung, die noch nicht begonnen hat, lässt sich nicht in die Vergangenheit verlegen.";

function refuseWhatSavedEventRefuses(tx: Queryable, eventId: number, value: { capacity: number | null; startsAt: Date }) {
  const errors = refusalsOfSavedEvent(tx, eventId, value);
  if (Object.keys(errors).length) throw new EventFormRefusal(errors);
}

/** The capacity field's message when fewer places are asked for than are held, else null. Asked in
 * the transaction that saves, and before it when another field is refused (one answer says both). */
export function fewerPlacesThanHeld(tx: Queryable, eventId: number, capacity: number | null) {
  if (capacity === null) return null;
  const held = placesTaken(eventId);
  if (capacity >= held) return null;
  const offers =
    tx
      .select({ n: sql<number>`count(*)` })
      .from(registrations)
      .where(and(eq(registrations.eventId, eventId), isNotNull(registrations.offerExpiresAt), inArray(registrations.applicationStatus, ["open", "accepted"])))
      .get()?.n ?? 0;
  const ofWhich = offers === 1 ? ", davon 1 als offenes Platzangebot an die Warteliste" : offers > 1 ? `, davon ${offers} als offene Platzangebote an die Warteliste` : "";
  return `Mindestens ${held}: so viele Plätze sind schon vergeben${ofWhich}.`;
}

export type EventInput = {
  title: string;
  description: string;
  dateFrom: string;
  dateTo: string | null;
  timeFrom: string;
  timeTo: string | null;
  registrationDeadline: string | null;
  location: string;
  priceCents: number;
  siblingDiscount: string;
  memberRules: string;
  ownerIds: number[];
  /** False when the edit form did not offer the choice: the lead persons stay as they are. */
  ownersChosen: boolean;
  helperIds: number[];
  onlyStaffVisible: boolean;
  requiresApplication: boolean;
  tshirtSizeRequired: boolean;
  swimBadgeRequired: boolean;
  permitsRequired: boolean;
  capacity: number | null;
  siblingDiscountCents: number;
  offerHours: number;
};

/**
 * Whom the edit form offers as lead persons: the active admins and the event's current lead
 * persons, whatever their role (a lead person stays one when their admin role ends).
 */
export function listLeadCandidates(eventId: number | null): PersonName[] {
  const current = eventId === null ? sql`0` : inArray(users.id, db.select({ id: eventOwners.userId }).from(eventOwners).where(eq(eventOwners.eventId, eventId)));
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(or(and(eq(users.role, "admin"), eq(users.banned, false)), current))
    .orderBy(asc(users.lastName), asc(users.firstName))
    .all();
}

/** Admin users, the people lead persons and helpers are picked from. */
export function listAdminUsers(): PersonName[] {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.banned, false)))
    .orderBy(asc(users.lastName), asc(users.firstName))
    .all();
}

function eventColumns(input: EventInput) {
  const { ownerIds: _owners, ownersChosen: _chosen, helperIds: _helpers, ...columns } = input;
  return { ...columns, startsAt: berlinToInstant(input.dateFrom, input.timeFrom) };
}

/** Of the ids picked in the form, those of active admins. */
function adminIdsAmong(tx: Queryable, ids: number[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.role, "admin"), eq(users.banned, false)))
    .all()
    .map((u) => u.id);
}

/**
 * The lead persons an admin picked: among the active admins and the current lead persons (ids
 * of anybody else are ignored). Unchanged ones are left alone.
 */
function replaceOwners(tx: Queryable, eventId: number, picked: number[]) {
  const current = tx.select({ id: eventOwners.userId }).from(eventOwners).where(eq(eventOwners.eventId, eventId)).all().map((o) => o.id);
  const admins = adminIdsAmong(tx, picked);
  const next = new Set(picked.filter((id) => current.includes(id) || admins.includes(id)));
  const gone = current.filter((id) => !next.has(id));
  if (gone.length) tx.delete(eventOwners).where(and(eq(eventOwners.eventId, eventId), inArray(eventOwners.userId, gone))).run();
  const added = [...next].filter((id) => !current.includes(id));
  if (added.length) tx.insert(eventOwners).values(added.map((userId) => ({ eventId, userId }))).run();
}

type NewFile = StoredFile & { kind: UploadKind };

function insertFiles(tx: Queryable, eventId: number, stored: NewFile[], firstPosition: number) {
  let position = firstPosition;
  for (const file of stored) {
    tx.insert(files)
      .values({
        key: file.key,
        displayName: file.displayName,
        mimeType: file.mimeType,
        size: file.size,
        kind: file.kind === "picture" ? "preview" : "attachment",
        eventId,
        position: file.kind === "picture" ? 0 : position++,
      })
      .run();
  }
}

/**
 * Creates an event; with a submission key seen before it creates nothing and answers with the
 * first event's id (`repeated`), so a double submit makes one event.
 */
export function createEvent(input: EventInput, actor: SessionUser, stored: NewFile[], submissionKey: string | null = null) {
  return writeTransaction((tx) => {
    const earlier = earlierSubmission(tx, submissionKey, actor.id);
    if (earlier) return { id: Number(earlier.split("/").pop()), repeated: true };
    const event = tx
      .insert(events)
      .values({ ...eventColumns(input), createdById: actor.id })
      .returning({ id: events.id })
      .get();
    const ownerIds = adminIdsAmong(tx, input.ownerIds);
    if (ownerIds.length) tx.insert(eventOwners).values(ownerIds.map((userId) => ({ eventId: event.id, userId }))).run();
    setEventFormHelpers(tx, event.id, adminIdsAmong(tx, input.helperIds), actor);
    insertFiles(tx, event.id, stored, 0);
    recordSubmission(tx, submissionKey, actor.id, `/freizeit/${event.id}`);
    return { id: event.id, repeated: false };
  });
}

/** What the edit form shows. */
export function getEventForEdit(eventId: number) {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) return null;
  const ownerIds = db.select({ id: eventOwners.userId }).from(eventOwners).where(eq(eventOwners.eventId, eventId)).all().map((r) => r.id);
  const helperIds = db
    .select({ id: eventHelpers.userId })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.status, "accepted"), eq(users.role, "admin")))
    .all()
    .map((r) => r.id);
  const eventFiles = db
    .select({ id: files.id, key: files.key, displayName: files.displayName, kind: files.kind })
    .from(files)
    .where(eq(files.eventId, eventId))
    .orderBy(asc(files.position), asc(files.id))
    .all();
  return {
    event,
    ownerIds,
    helperIds,
    picture: eventFiles.find((f) => f.kind === "preview") ?? null,
    attachments: eventFiles.filter((f) => f.kind === "attachment"),
  };
}

export type FileChanges = {
  renamed: { id: number; displayName: string }[];
  removedIds: number[];
  removePicture: boolean;
};

/**
 * Saves the edit form. Lead persons change only when an admin saves. Helpers picked in the form
 * (admins) become accepted; admins no longer picked lose an accepted place; helpers who are not
 * admins stay as they are. Returns the files that are no longer used, for removal from disk.
 */
export function updateEvent(
  eventId: number,
  input: EventInput,
  actor: SessionUser,
  stored: NewFile[],
  changes: FileChanges,
  submissionKey: string | null = null,
) {
  return writeTransaction((tx) => {
    // The same form sent twice: the second changes nothing, and its new files are not needed.
    if (earlierSubmission(tx, submissionKey, actor.id)) return { unused: stored.map((f) => ({ kind: f.kind, key: f.key })), offers: { shortened: 0, extended: 0, ended: 0 }, moved: [] };
    const columns = eventColumns(input);
    refuseWhatSavedEventRefuses(tx, eventId, { capacity: input.capacity, startsAt: columns.startsAt });
    recordSubmission(tx, submissionKey, actor.id, `/freizeit/${eventId}`);
    const before = tx.select({ startsAt: events.startsAt, dateFrom: events.dateFrom, timeFrom: events.timeFrom, dateTo: events.dateTo, timeTo: events.timeTo, location: events.location }).from(events).where(eq(events.id, eventId)).get();
    tx.update(events).set(columns).where(eq(events.id, eventId)).run();
    const offers = fitOffersToStart(tx, eventId, { from: before?.startsAt ?? columns.startsAt, to: columns.startsAt }, actor.id);
    // More places (or none any more) than before: the waiting list moves up at once.
    offerFreePlaces(tx, eventId);

    if (actor.role === "admin" && input.ownersChosen) replaceOwners(tx, eventId, input.ownerIds);

    setEventFormHelpers(tx, eventId, adminIdsAmong(tx, input.helperIds), actor);

    const own = (ids: number[]) =>
      ids.length ? and(eq(files.eventId, eventId), inArray(files.id, ids)) : sql`0`;
    const renamed = new Map(changes.renamed.map((r) => [r.id, r.displayName]));
    const toRename = tx.select({ id: files.id, key: files.key }).from(files).where(and(own([...renamed.keys()]), eq(files.kind, "attachment"))).all();
    for (const { id, key } of toRename) {
      tx.update(files).set({ displayName: displayFileName(renamed.get(id)!, key) }).where(eq(files.id, id)).run();
    }
    const newPicture = stored.some((s) => s.kind === "picture");
    const gone = tx
      .select({ id: files.id, key: files.key, kind: files.kind })
      .from(files)
      .where(
        or(
          and(own(changes.removedIds), eq(files.kind, "attachment")),
          newPicture || changes.removePicture ? and(eq(files.eventId, eventId), eq(files.kind, "preview")) : sql`0`,
        ),
      )
      .all();
    if (gone.length) tx.delete(files).where(inArray(files.id, gone.map((f) => f.id))).run();
    const last = tx
      .select({ n: sql<number>`coalesce(max(${files.position}), -1)` })
      .from(files)
      .where(and(eq(files.eventId, eventId), eq(files.kind, "attachment")))
      .get()!.n;
    insertFiles(tx, eventId, stored, last + 1);
    const unused = gone.map((f) => ({ kind: (f.kind === "preview" ? "picture" : "attachment") as UploadKind, key: f.key }));
    return { unused, offers, moved: before ? plansMoved(before, columns) : [] };
  });
}

/** Deletes an event with everything that hangs on it, then its files on disk; the protocol keeps
 * who deleted which event. The families and helpers of an upcoming event are told it is cancelled
 * (answers go to `actor`); returns how many mails that took. */
export async function deleteEvent(eventId: number, actor: { id: number; email: string } | null = null) {
  const { eventFiles, told } = writeTransaction((tx) => {
    const eventFiles = tx.select({ key: files.key, kind: files.kind }).from(files).where(eq(files.eventId, eventId)).all();
    const event = tx.select({ title: events.title, dateFrom: events.dateFrom }).from(events).where(eq(events.id, eventId)).get();
    const told = tellEventCancelled(tx, eventId, actor);
    withdrawEventMails(tx, eventId);
    tx.delete(events).where(eq(events.id, eventId)).run();
    if (event) {
      const details = { title: event.title, dateFrom: event.dateFrom, told };
      recordAudit(tx, { actorId: actor?.id ?? null, action: "event.deleted", entityType: "event", entityId: eventId, details });
    }
    return { eventFiles, told };
  });
  await Promise.all(eventFiles.map((f) => removeStoredFile(f.kind === "preview" ? "picture" : "attachment", f.key)));
  return told;
}
