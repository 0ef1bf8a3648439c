import { and, asc, eq, exists, gt, or, sql } from "drizzle-orm";
import { eventHelpers, eventOwners, events } from "../../db/schema";
import type { SessionUser } from "./user.server";
import { db, type Queryable } from "~/services/db.server";

export type EventTile = {
  id: number;
  title: string;
  description: string;
  dateFrom: string;
  dateTo: string | null;
  timeFrom: string;
  location: string;
};

const tileColumns = {
  id: events.id,
  title: events.title,
  description: events.description,
  dateFrom: events.dateFrom,
  dateTo: events.dateTo,
  timeFrom: events.timeFrom,
  location: events.location,
} as const;

/**
 * Who may see an event at all: everyone, unless it is staff-only (isOnlyMAVisible); then only
 * admins and the event's owners and helpers.
 */
function visibleTo(user: SessionUser | null) {
  if (user?.role === "admin") return undefined;
  if (!user) return eq(events.onlyStaffVisible, false);
  return or(
    eq(events.onlyStaffVisible, false),
    exists(
      db
        .select({ one: sql`1` })
        .from(eventOwners)
        .where(and(eq(eventOwners.eventId, events.id), eq(eventOwners.userId, user.id))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(eventHelpers)
        .where(and(eq(eventHelpers.eventId, events.id), eq(eventHelpers.userId, user.id))),
    ),
  );
}

/** Events that have not started yet, as the home list shows them: by start date, then title. */
export function listUpcomingEvents(user: SessionUser | null, now = new Date(), database: Queryable = db): EventTile[] {
  return database
    .select(tileColumns)
    .from(events)
    .where(and(gt(events.startsAt, now), visibleTo(user)))
    .orderBy(asc(events.dateFrom), asc(events.title))
    .all();
}
