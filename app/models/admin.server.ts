// The admin panel (/gott): events with their open decisions, the users with roles and
// deactivation, the protocol. Every list is one query (plus a count), whatever its length.
import { and, asc, count, desc, eq, inArray, like, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { auditLog, eventHelpers, events, files, germanNameOrder, participants, registrations, users } from "../../db/schema";
import { recordAudit } from "./audit.server";
import { setUserBanned, type SessionUser } from "./user.server";
import { hasAmountDue } from "./registration-change.server";
import type { ProtocolKind } from "~/schemas/admin";
import { db, writeTransaction, type Tx } from "~/services/db.server";

export const PAGE_SIZE = 50;

// ---------------------------------------------------------------------------------------------
// Veranstaltungsverwaltung

export type AdminEventCard = {
  id: number;
  title: string;
  dateFrom: string;
  dateTo: string | null;
  pictureKey: string | null;
  past: boolean;
  openRegistrations: number;
  openHelpers: number;
  openPayments: number;
};

/**
 * Every event with its open decisions, upcoming first (soonest first), then past (latest first).
 * Open registrations: place-holding and awaiting the leaders' decision. Open helper applications:
 * pending. Open payments: place-holding (open or accepted) registrations with something to pay
 * that are not paid. All counts come from one query.
 */
export function listAdminEvents(now = new Date()): AdminEventCard[] {
  const registrationCounts = db
    .select({
      eventId: registrations.eventId,
      open: sql<number>`sum(${registrations.applicationStatus} = 'open')`.as("open_registrations"),
      unpaid: sql<number>`sum(${registrations.paid} = 0 and ${hasAmountDue})`.as("open_payments"),
    })
    .from(registrations)
    // Only place-holding registrations count: none on the waiting list, none decided against.
    // Written as the partial index's condition, literally, so that SQLite reads only that index.
    .where(sql`${registrations.waitingListPosition} IS NULL AND ${registrations.applicationStatus} IN ('open', 'accepted')`)
    .groupBy(registrations.eventId)
    .as("registration_counts");
  const helperCounts = db
    .select({ eventId: eventHelpers.eventId, pending: count().as("pending_helpers") })
    .from(eventHelpers)
    .where(eq(eventHelpers.status, "pending"))
    .groupBy(eventHelpers.eventId)
    .as("helper_counts");
  const nowMs = now.getTime();
  const rows = db
    .select({
      id: events.id,
      title: events.title,
      dateFrom: events.dateFrom,
      dateTo: events.dateTo,
      startsAt: events.startsAt,
      pictureKey: files.key,
      openRegistrations: sql<number>`coalesce(${registrationCounts.open}, 0)`,
      openPayments: sql<number>`coalesce(${registrationCounts.unpaid}, 0)`,
      openHelpers: sql<number>`coalesce(${helperCounts.pending}, 0)`,
    })
    .from(events)
    .leftJoin(files, and(eq(files.eventId, events.id), eq(files.kind, "preview")))
    .leftJoin(registrationCounts, eq(registrationCounts.eventId, events.id))
    .leftJoin(helperCounts, eq(helperCounts.eventId, events.id))
    // Upcoming, then past; each as every event list of the spec: by start date, then title.
    .orderBy(sql`${events.startsAt} <= ${nowMs}`, asc(events.dateFrom), germanNameOrder(events.title), asc(events.id))
    .all();
  return rows.map(({ startsAt, ...row }) => ({ ...row, past: startsAt.getTime() <= nowMs }));
}

// ---------------------------------------------------------------------------------------------
// Benutzerverwaltung

export type AdminUserRow = { id: number; firstName: string; lastName: string; email: string; role: "user" | "admin"; banned: boolean };

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function searchCondition(query: string) {
  const words = query.trim().split(/\s+/).filter(Boolean).slice(0, 5);
  if (words.length === 0) return undefined;
  // Every word somewhere in the name or the address: 'erika muster' finds Erika Mustermann.
  return and(
    ...words.map((word) => {
      const pattern = `%${escapeLike(word.toLowerCase())}%`;
      return or(
        sql`lower(${users.firstName}) like ${pattern} escape '\\'`,
        sql`lower(${users.lastName}) like ${pattern} escape '\\'`,
        like(users.email, pattern),
      );
    }),
  );
}

const userColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: users.role, banned: users.banned };
// As the index users_role_name_order_idx: the page is read from it in order, no sorting.
const userOrder = [germanNameOrder(users.lastName), sql`${users.firstName} collate nocase`, asc(users.id)];

/**
 * The two lists of the user tab: every admin matching the search (there are few), and one page
 * of the other users with their total. Three queries, whatever the number of accounts.
 */
export function listAdminUsers(options: { query: string; page: number }) {
  const search = searchCondition(options.query);
  const admins = db.select(userColumns).from(users).where(and(eq(users.role, "admin"), search)).orderBy(...userOrder).all();
  const others = and(eq(users.role, "user"), search);
  const total = db.select({ n: count() }).from(users).where(others).get()!.n;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page), pages);
  const people = db
    .select(userColumns)
    .from(users)
    .where(others)
    .orderBy(...userOrder)
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .all();
  return { admins, users: people, total, page, pages };
}

export type AdminChange = { ok: true; name: string; banned: boolean } | { ok: false; reason: "not_found" | "self" | "last_admin" };

function targetOf(userId: number, database: Tx) {
  return database.select({ role: users.role, banned: users.banned, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).get();
}

function activeAdmins(database: Tx) {
  return database.select({ n: count() }).from(users).where(and(eq(users.role, "admin"), eq(users.banned, false))).get()!.n;
}

/**
 * Grants or revokes the admin role. An admin cannot demote themselves, and the last active admin
 * stays an admin. The role is read from the database on every request, so it applies at once.
 */
export function setAdminRole(actor: SessionUser, userId: number, admin: boolean): AdminChange {
  return writeTransaction((tx) => {
    const target = targetOf(userId, tx);
    if (!target) return { ok: false as const, reason: "not_found" as const };
    const name = `${target.firstName} ${target.lastName}`;
    if (!admin && userId === actor.id) return { ok: false as const, reason: "self" as const };
    if ((target.role === "admin") === admin) return { ok: true as const, name, banned: target.banned };
    if (!admin && !target.banned && activeAdmins(tx) <= 1) return { ok: false as const, reason: "last_admin" as const };
    tx.update(users).set({ role: admin ? "admin" : "user" }).where(eq(users.id, userId)).run();
    recordAudit(tx, { actorId: actor.id, action: admin ? "user.admin_granted" : "user.admin_revoked", entityType: "user", entityId: userId, details: { name } });
    return { ok: true as const, name, banned: target.banned };
  });
}

/**
 * Deactivates or reactivates a user through setUserBanned (which ends every session and mailed
 * link at once), with its protocol entry in the same transaction. An admin cannot deactivate
 * themselves; the last active admin cannot be deactivated.
 */
export function setUserActive(actor: SessionUser, userId: number, active: boolean): AdminChange {
  return writeTransaction((tx) => {
    const target = targetOf(userId, tx);
    if (!target) return { ok: false as const, reason: "not_found" as const };
    const name = `${target.firstName} ${target.lastName}`;
    if (!active && userId === actor.id) return { ok: false as const, reason: "self" as const };
    if (target.banned === !active) return { ok: true as const, name, banned: !active };
    // Nested: better-sqlite3 runs the inner transaction as a savepoint of this one.
    const changed = setUserBanned(userId, !active);
    if (!changed.ok) return { ok: false as const, reason: changed.reason };
    recordAudit(tx, { actorId: actor.id, action: active ? "user.reactivated" : "user.deactivated", entityType: "user", entityId: userId, details: { name } });
    return { ok: true as const, name, banned: !active };
  });
}

/** Role and activity of one account, for /account/{id}. */
export function accountState(userId: number) {
  return db.select({ role: users.role, banned: users.banned }).from(users).where(eq(users.id, userId)).get() ?? null;
}

// ---------------------------------------------------------------------------------------------
// Protokoll

export type ProtocolEntry = {
  id: number;
  createdAt: Date;
  action: string;
  kind: string;
  entityId: number | null;
  details: Record<string, unknown>;
  actor: string | null;
  /** The account of the person who acted, while it exists (namesakes told apart by a link). */
  actorId: number | null;
  /** The child of a registration entry, the person of a helper or account entry (while they exist). */
  person: string | null;
  /** The account a helper or account entry is about, while it exists. */
  accountId: number | null;
  /** The event of a registration or helper entry (while it exists). */
  event: string | null;
};

const entryUsers = alias(users, "entry_users");
const entryEvents = alias(events, "entry_events");

/** One page of the protocol, newest first, optionally of one kind. */
export function listProtocol(options: { kind: ProtocolKind | null; page: number }) {
  const where = options.kind ? eq(auditLog.entityType, options.kind) : undefined;
  const total = db.select({ n: count() }).from(auditLog).where(where).get()!.n;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page), pages);
  const rows = db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      kind: auditLog.entityType,
      entityId: auditLog.entityId,
      details: auditLog.details,
      actorId: users.id,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
      person: sql<string | null>`coalesce(${participants.firstName} || ' ' || ${participants.lastName}, ${entryUsers.firstName} || ' ' || ${entryUsers.lastName})`,
      accountId: entryUsers.id,
      event: entryEvents.title,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    // Names are looked up, not kept in the log: what the entry is about, as long as it exists.
    .leftJoin(registrations, and(eq(auditLog.entityType, "registration"), eq(registrations.id, auditLog.entityId)))
    .leftJoin(participants, eq(participants.id, registrations.participantId))
    .leftJoin(entryUsers, and(inArray(auditLog.entityType, ["helper", "user"]), eq(entryUsers.id, auditLog.entityId)))
    // The event: the registration's, the entry's own (an event's entry), or the one its details name.
    .leftJoin(
      entryEvents,
      eq(entryEvents.id, sql`coalesce(${registrations.eventId}, case when ${auditLog.entityType} = 'event' then ${auditLog.entityId} end, json_extract(${auditLog.details}, '$.eventId'))`),
    )
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .all();
  const entries: ProtocolEntry[] = rows.map(({ actorFirstName, actorLastName, details, ...row }) => ({
    ...row,
    details: parseDetails(details),
    actor: actorFirstName === null ? null : `${actorFirstName} ${actorLastName}`,
  }));
  return { entries, total, page, pages };
}

function parseDetails(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
