// What a person may do on an event: the one place that answers it (DECISIONS.md, 'Who may do
// what on an event's lists'). Every loader and every action of the leaders' screens asks here;
// Remix does not run a parent route's loader before a child's action, and hiding a button
// protects nothing.
import { redirect } from "@remix-run/node";
import { eq, sql } from "drizzle-orm";
import { eventHelpers, eventOwners, events } from "../../db/schema";
import type { SessionUser } from "~/models/user.server";
import { db } from "./db.server";
import { requireUser } from "./session.server";
import { idFrom } from "~/lib/ids";

/**
 * A person's part in one event: admin (any event), lead person (listed as Leitung, whatever their
 * role), team (accepted helper), applicant (pending or declined helper), or none (a parent, any
 * other signed-in person, a visitor).
 */
export const EVENT_ROLES = ["admin", "lead", "team", "applicant", "none"] as const;
export type EventRole = (typeof EVENT_ROLES)[number];

export const CAPABILITIES = [
  "viewLists",
  "viewDetails",
  "comment",
  "assignGroups",
  /** Create, rename and delete groups: the leaders' structure of the camp. */
  "manageGroups",
  "export",
  "decideRegistrations",
  "confirmPayments",
  "viewSepa",
  "decideHelpers",
  /** Record a helper's police certificate inspection, Juleica and phone (on the person's account). */
  "recordHelperChecks",
  "sendEventMail",
  "editEvent",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const EVERYTHING = CAPABILITIES;
/** The camp team needs the lists at camp (phones, special needs), decides nothing, sees no IBAN. */
const TEAM: readonly Capability[] = ["viewLists", "viewDetails", "comment", "assignGroups", "export"];

const TABLE: Record<EventRole, readonly Capability[]> = {
  admin: EVERYTHING,
  lead: EVERYTHING,
  team: TEAM,
  applicant: [],
  none: [],
};

export function can(role: EventRole, capability: Capability) {
  return TABLE[role].includes(capability);
}

/** Every capability of a role, for a page that shows or hides its buttons. */
export function capabilitiesOf(role: EventRole): Record<Capability, boolean> {
  return Object.fromEntries(CAPABILITIES.map((c) => [c, can(role, c)])) as Record<Capability, boolean>;
}

export type EventAccess = {
  event: { id: number; title: string; startsAt: Date; capacity: number | null; onlyStaffVisible: boolean };
  role: EventRole;
  may: Record<Capability, boolean>;
};

/** The event and the person's role in it, in one query; null when there is no such event. */
export function eventAccess(eventId: number, user: SessionUser | null): EventAccess | null {
  if (!Number.isSafeInteger(eventId) || eventId <= 0) return null;
  const userId = user?.id ?? 0;
  const row = db
    .select({
      id: events.id,
      title: events.title,
      startsAt: events.startsAt,
      capacity: events.capacity,
      onlyStaffVisible: events.onlyStaffVisible,
      // The event's row named with its table: drizzle writes a one-table query's columns without
      // it, and inside the subquery a bare "id" would be the subquery's own column if it had one.
      isLead: sql<number>`exists(select 1 from ${eventOwners} where ${eventOwners.eventId} = "events"."id" and ${eventOwners.userId} = ${userId})`,
      helperStatus: sql<string | null>`(select ${eventHelpers.status} from ${eventHelpers} where ${eventHelpers.eventId} = "events"."id" and ${eventHelpers.userId} = ${userId})`,
    })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
  if (!row) return null;
  const role = roleOf(user, Boolean(row.isLead), row.helperStatus);
  const { isLead: _lead, helperStatus: _status, ...event } = row;
  return { event, role, may: capabilitiesOf(role) };
}

export function roleOf(user: SessionUser | null, isLead: boolean, helperStatus: string | null): EventRole {
  if (!user) return "none";
  if (user.role === "admin") return "admin";
  if (isLead) return "lead";
  if (helperStatus === "accepted") return "team";
  if (helperStatus === "pending" || helperStatus === "declined") return "applicant";
  return "none";
}

export const NOT_FOUND_TEXT = "Nicht gefunden";

/**
 * The signed-in person with `capability` on the event, or a thrown answer: signed out → /login
 * (and back); the event does not exist → 404; the capability is missing → `/` for the list pages
 * (the spec's guard), 404 for everything else (so ids cannot be probed).
 */
export async function requireEventCapability(
  request: Request,
  eventId: number | string | undefined,
  capability: Capability,
  denied: "home" | "not-found" = "not-found",
) {
  const user = await requireUser(request);
  const access = eventAccess(typeof eventId === "number" ? eventId : idFrom(eventId) ?? NaN, user);
  if (!access) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  if (!access.may[capability]) {
    if (denied === "home") throw redirect("/");
    throw new Response(NOT_FOUND_TEXT, { status: 404 });
  }
  return { user, ...access };
}
