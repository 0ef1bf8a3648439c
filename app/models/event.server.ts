// Events (Freizeiten): the lists, the detail page, helper applications, the files. Who may see
// what is decided here. Creating, editing and deleting: event-edit.server.ts.
import { and, asc, eq, exists, gt, lte, or, sql, type SQL } from "drizzle-orm";
import {
  eventGroups,
  eventHelpers,
  eventOwners,
  events,
  files,
  germanNameOrder,
  groupMembers,
  participants,
  registrations,
  users,
  type HelperStatus,
} from "../../db/schema";
import { berlinToday } from "~/lib/dates";
import { sortMyRegistrations } from "~/lib/registration-order";
import { TILE_TEXT } from "~/lib/event-rules";
import { db } from "~/services/db.server";
import { can, capabilitiesOf, roleOf } from "~/services/permissions.server";
import { placesTaken, registrationStateColumns } from "./registration-change.server";
import { compareHelpers } from "./helper.server";
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
  /** The beginning of the description: the tile shows at most TILE_TEXT characters of it. */
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
      // One character more than a tile shows, so that it can tell a cut text by its length.
      description: sql<string>`substr(${events.description}, 1, ${TILE_TEXT + 1})`,
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
    // Part 1 §4: by start date, ties by title, as a German reader orders them.
    .orderBy(asc(events.dateFrom), germanNameOrder(events.title), asc(events.id))
    .all() as EventTile[];
  return { upcoming: rows.filter((e) => !e.past), past: rows.filter((e) => e.past) };
}

// ---------------------------------------------------------------------------------------------
// The detail page

export type PersonName = { id: number; firstName: string; lastName: string };

/** Places taken: open and accepted registrations that are not on the waiting list. */
export { placesTaken } from "./registration-change.server";

/**
 * What an event's page reads of its row, named one by one: its data reaches every visitor (also as
 * `?_data=` JSON), so a new column of events reaches it only when named here. `startsAt` is for
 * the server (the loader leaves it out).
 */
export const EVENT_PAGE_COLUMNS = {
  id: events.id,
  title: events.title,
  description: events.description,
  dateFrom: events.dateFrom,
  dateTo: events.dateTo,
  timeFrom: events.timeFrom,
  timeTo: events.timeTo,
  registrationDeadline: events.registrationDeadline,
  startsAt: events.startsAt,
  location: events.location,
  priceCents: events.priceCents,
  siblingDiscount: events.siblingDiscount,
  siblingDiscountCents: events.siblingDiscountCents,
  memberRules: events.memberRules,
  onlyStaffVisible: events.onlyStaffVisible,
  requiresApplication: events.requiresApplication,
  tshirtSizeRequired: events.tshirtSizeRequired,
  swimBadgeRequired: events.swimBadgeRequired,
  permitsRequired: events.permitsRequired,
  capacity: events.capacity,
  offerHours: events.offerHours,
};

export function getEventPage(eventId: number, user: SessionUser | null, now = new Date()) {
  const event = db
    .select({
      event: EVENT_PAGE_COLUMNS,
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
    .orderBy(germanNameOrder(users.lastName), sql`${users.firstName} collate nocase`, asc(users.id))
    .all();
  // Part 1 §4: by group name (grouped first), surname, then first name, as the helper list.
  const helpers = db
    .select({ ...people, status: eventHelpers.status, groupName: eventGroups.name })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, eventHelpers.eventId), eq(groupMembers.helperUserId, eventHelpers.userId)))
    .leftJoin(eventGroups, eq(eventGroups.id, groupMembers.groupId))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.status, "accepted")))
    .all()
    .sort(compareHelpers)
    .map(({ id, firstName, lastName }): PersonName => ({ id, firstName, lastName }));
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
            ...registrationStateColumns,
            // As milliseconds: the page's data travels as JSON.
            offerExpiresAt: sql<number | null>`${registrations.offerExpiresAt}`,
            // The enrolment it came with: each confirmation's link names its children.
            enrolmentId: registrations.enrolmentId,
          })
          .from(registrations)
          .innerJoin(participants, eq(participants.id, registrations.participantId))
          .where(and(eq(registrations.eventId, eventId), eq(registrations.userId, user.id)))
          .all()
          .map((row) => ({ ...row, eventStarted: event.event.startsAt.getTime() <= now.getTime() })),
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
    /** Its last day is over (Berlin): the page says so rather than that it has begun. */
    ended: (event.event.dateTo ?? event.event.dateFrom) < berlinToday(now),
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

// Creating, editing and deleting: app/models/event-edit.server.ts (re-exported for the routes).
export {
  createEvent,
  deleteEvent,
  EventFormRefusal,
  getEventForEdit,
  listAdminUsers,
  listLeadCandidates,
  refusalsOfSavedEvent,
  updateEvent,
  type EventInput,
  type FileChanges,
} from "./event-edit.server";

// ---------------------------------------------------------------------------------------------
// Helpers applying

/**
 * 'Als Helfer*in bewerben': a first application is pending; an existing entry stays as it is.
 * Returns the person's status on the event afterwards.
 */
export function applyAsHelper(eventId: number, user: SessionUser) {
  db.insert(eventHelpers).values({ eventId, userId: user.id, status: "pending" }).onConflictDoNothing().run();
  return db
    .select({ status: eventHelpers.status })
    .from(eventHelpers)
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, user.id)))
    .get()!.status;
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
