// Events (Freizeiten): the lists, the detail page, creating, editing, deleting, helper
// applications. Who may see what is decided here.
import { and, asc, count, eq, exists, gt, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import {
  eventHelpers,
  eventOwners,
  events,
  files,
  participants,
  registrations,
  users,
  type HelperStatus,
} from "../../db/schema";
import { berlinToInstant } from "~/lib/dates";
import { sortMyRegistrations } from "~/lib/registration-order";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { can, capabilitiesOf, roleOf } from "~/services/permissions.server";
import { removeStoredFile, type StoredFile, type UploadKind } from "~/services/uploads.server";
import { recordAudit } from "./audit.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";
import { placesTaken } from "./registration-change.server";
import { offerFreePlaces } from "./waiting-list.server";
import type { SessionUser } from "./user.server";

// ---------------------------------------------------------------------------------------------
// Visibility and roles

function isOwnerOf(user: SessionUser) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(eventOwners)
      .where(and(eq(eventOwners.eventId, events.id), eq(eventOwners.userId, user.id))),
  );
}

function isAcceptedHelperOf(user: SessionUser) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(eventHelpers)
      .where(and(eq(eventHelpers.eventId, events.id), eq(eventHelpers.userId, user.id), eq(eventHelpers.status, "accepted"))),
  );
}

function hasRegistrationFor(user: SessionUser) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(registrations)
      .where(and(eq(registrations.eventId, events.id), eq(registrations.userId, user.id))),
  );
}

/**
 * Who may see an event at all: everyone, unless it is staff-only (isOnlyMAVisible); then only
 * admins and the event's owners and accepted helpers.
 */
export function visibleTo(user: SessionUser | null): SQL | undefined {
  if (user?.role === "admin") return undefined;
  if (!user) return eq(events.onlyStaffVisible, false);
  return or(eq(events.onlyStaffVisible, false), isOwnerOf(user), isAcceptedHelperOf(user));
}

// ---------------------------------------------------------------------------------------------
// The home list

export type EventFilter = "all" | "mine";

export type EventTile = {
  id: number;
  title: string;
  description: string;
  dateFrom: string;
  dateTo: string | null;
  location: string;
  requiresApplication: boolean;
  past: boolean;
  /** The signed-in admin leads or helps at it (highlighted on the home list). */
  highlighted: boolean;
  pictureKey: string | null;
};

/**
 * The home list: upcoming events for everyone; for signed-in users also past ones, and with
 * 'mine' only those they registered a child for, lead or help at. By start date, then title.
 */
export function listEvents(user: SessionUser | null, filter: EventFilter, now = new Date()) {
  const mine = user && filter === "mine" ? or(isOwnerOf(user), isAcceptedHelperOf(user), hasRegistrationFor(user)) : undefined;
  const rows = db
    .select({
      id: events.id,
      title: events.title,
      description: events.description,
      dateFrom: events.dateFrom,
      dateTo: events.dateTo,
      location: events.location,
      requiresApplication: events.requiresApplication,
      past: lte(events.startsAt, now).mapWith(Boolean),
      highlighted: (user?.role === "admin" ? or(isOwnerOf(user), isAcceptedHelperOf(user)) : sql`0`)!.mapWith(Boolean),
      pictureKey: files.key,
    })
    .from(events)
    .leftJoin(files, and(eq(files.eventId, events.id), eq(files.kind, "preview")))
    .where(and(user ? undefined : gt(events.startsAt, now), visibleTo(user), mine))
    .orderBy(asc(events.dateFrom), asc(events.title))
    .all() as EventTile[];
  return { upcoming: rows.filter((e) => !e.past), past: rows.filter((e) => e.past) };
}

// ---------------------------------------------------------------------------------------------
// The detail page

export type PersonName = { id: number; firstName: string; lastName: string };

/** Places taken: open and accepted registrations that are not on the waiting list. */
export { placesTaken } from "./registration-change.server";

export function getEventPage(eventId: number, user: SessionUser | null, now = new Date()) {
  const event = db
    .select({
      event: events,
      pictureKey: files.key,
      isOwner: (user ? isOwnerOf(user) : sql`0`).mapWith(Boolean),
      isAcceptedHelper: (user ? isAcceptedHelperOf(user) : sql`0`).mapWith(Boolean),
    })
    .from(events)
    .leftJoin(files, and(eq(files.eventId, events.id), eq(files.kind, "preview")))
    .where(and(eq(events.id, eventId), visibleTo(user)))
    .get();
  if (!event) return null;

  const people = { id: users.id, firstName: users.firstName, lastName: users.lastName };
  const owners = db
    .select(people)
    .from(eventOwners)
    .innerJoin(users, eq(users.id, eventOwners.userId))
    .where(eq(eventOwners.eventId, eventId))
    .orderBy(asc(users.lastName), asc(users.firstName))
    .all();
  const helpers = db
    .select(people)
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.status, "accepted")))
    .orderBy(asc(users.lastName), asc(users.firstName))
    .all();
  const attachments = db
    .select({ id: files.id, key: files.key, displayName: files.displayName })
    .from(files)
    .where(and(eq(files.eventId, eventId), eq(files.kind, "attachment")))
    .orderBy(asc(files.position), asc(files.id))
    .all();
  const myRegistrations = user
    ? sortMyRegistrations(
        db
          .select({
            id: registrations.id,
            firstName: participants.firstName,
            lastName: participants.lastName,
            applicationStatus: registrations.applicationStatus,
            paid: registrations.paid,
            waitingListPosition: registrations.waitingListPosition,
            // As milliseconds: the page's data travels as JSON.
            offerExpiresAt: sql<number | null>`${registrations.offerExpiresAt}`,
          })
          .from(registrations)
          .innerJoin(participants, eq(participants.id, registrations.participantId))
          .where(and(eq(registrations.eventId, eventId), eq(registrations.userId, user.id)))
          .all(),
      )
    : [];
  const myHelperStatus: HelperStatus | null = user
    ? (db
        .select({ status: eventHelpers.status })
        .from(eventHelpers)
        .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, user.id)))
        .get()?.status ?? null)
    : null;
  const capacity = event.event.capacity;
  const placesLeft = capacity === null ? null : Math.max(0, capacity - placesTaken(eventId));
  return {
    ...event.event,
    pictureKey: event.pictureKey,
    past: event.event.startsAt.getTime() <= now.getTime(),
    owners,
    helpers,
    attachments,
    myRegistrations,
    myHelperStatus,
    placesLeft,
    isOwner: event.isOwner,
    isAcceptedHelper: event.isAcceptedHelper,
    canManage: can(roleOf(user, event.isOwner, myHelperStatus), "editEvent"),
    /** What the person may do on the event's lists (the links of the page). */
    may: capabilitiesOf(roleOf(user, event.isOwner, myHelperStatus)),
  };
}

export type EventPage = NonNullable<ReturnType<typeof getEventPage>>;

/** For guards: does the event exist, may `user` see it, does `user` lead it. */
export function getEventAccess(eventId: number, user: SessionUser | null) {
  const row = db
    .select({
      id: events.id,
      title: events.title,
      startsAt: events.startsAt,
      requiresApplication: events.requiresApplication,
      isOwner: (user ? isOwnerOf(user) : sql`0`).mapWith(Boolean),
      isAcceptedHelper: (user ? isAcceptedHelperOf(user) : sql`0`).mapWith(Boolean),
    })
    .from(events)
    .where(and(eq(events.id, eventId), visibleTo(user)))
    .get();
  if (!row) return null;
  return { ...row, canManage: can(roleOf(user, row.isOwner, row.isAcceptedHelper ? "accepted" : null), "editEvent") };
}

// ---------------------------------------------------------------------------------------------
// Creating and editing

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
    const helperIds = adminIdsAmong(tx, input.helperIds);
    if (helperIds.length) {
      tx.insert(eventHelpers).values(helperIds.map((userId) => ({ eventId: event.id, userId, status: "accepted" as const }))).run();
    }
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
    if (earlierSubmission(tx, submissionKey, actor.id)) return stored.map((f) => ({ kind: f.kind, key: f.key }));
    recordSubmission(tx, submissionKey, actor.id, `/freizeit/${eventId}`);
    tx.update(events).set(eventColumns(input)).where(eq(events.id, eventId)).run();
    // More places (or none any more) than before: the waiting list moves up at once.
    offerFreePlaces(tx, eventId);

    if (actor.role === "admin" && input.ownersChosen) replaceOwners(tx, eventId, input.ownerIds);

    const chosen = adminIdsAmong(tx, input.helperIds);
    const adminHelpers = tx
      .select({ userId: eventHelpers.userId, status: eventHelpers.status })
      .from(eventHelpers)
      .innerJoin(users, eq(users.id, eventHelpers.userId))
      .where(and(eq(eventHelpers.eventId, eventId), eq(users.role, "admin")))
      .all();
    const dropped = adminHelpers.filter((h) => h.status === "accepted" && !chosen.includes(h.userId)).map((h) => h.userId);
    if (dropped.length) tx.delete(eventHelpers).where(and(eq(eventHelpers.eventId, eventId), inArray(eventHelpers.userId, dropped))).run();
    for (const userId of chosen) {
      tx.insert(eventHelpers)
        .values({ eventId, userId, status: "accepted" })
        .onConflictDoUpdate({ target: [eventHelpers.eventId, eventHelpers.userId], set: { status: "accepted", updatedAt: new Date() } })
        .run();
    }

    const own = (ids: number[]) =>
      ids.length ? and(eq(files.eventId, eventId), inArray(files.id, ids)) : sql`0`;
    for (const { id, displayName } of changes.renamed) {
      tx.update(files).set({ displayName }).where(and(own([id]), eq(files.kind, "attachment"))).run();
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
    return gone.map((f) => ({ kind: (f.kind === "preview" ? "picture" : "attachment") as UploadKind, key: f.key }));
  });
}

/** Deletes an event with everything that hangs on it, then its files on disk; the protocol keeps
 * who deleted which event. */
export async function deleteEvent(eventId: number, actorId: number | null = null) {
  const gone = writeTransaction((tx) => {
    const eventFiles = tx.select({ key: files.key, kind: files.kind }).from(files).where(eq(files.eventId, eventId)).all();
    const event = tx.select({ title: events.title, dateFrom: events.dateFrom }).from(events).where(eq(events.id, eventId)).get();
    tx.delete(events).where(eq(events.id, eventId)).run();
    if (event) recordAudit(tx, { actorId, action: "event.deleted", entityType: "event", entityId: eventId, details: { title: event.title, dateFrom: event.dateFrom } });
    return eventFiles;
  });
  await Promise.all(gone.map((f) => removeStoredFile(f.kind === "preview" ? "picture" : "attachment", f.key)));
}

// ---------------------------------------------------------------------------------------------
// Helpers applying

/** 'Als Helfer*in bewerben': a first application is pending; an existing entry stays as it is. */
export function applyAsHelper(eventId: number, user: SessionUser) {
  db.insert(eventHelpers).values({ eventId, userId: user.id, status: "pending" }).onConflictDoNothing().run();
}

// Files of an event, for the file routes.
export function findEventFile(key: string, kind: "preview" | "attachment", user: SessionUser | null) {
  return (
    db
      .select({ key: files.key, displayName: files.displayName, mimeType: files.mimeType, size: files.size, staffOnly: events.onlyStaffVisible })
      .from(files)
      .innerJoin(events, eq(events.id, files.eventId))
      .where(and(eq(files.key, key), eq(files.kind, kind), visibleTo(user)))
      .get() ?? null
  );
}
