// Sessions live in the database; the cookie holds only a random id (signed). The server can end
// a session at any time: logout, ban, password change, account deletion.
import { createCookie, redirect } from "@remix-run/node";
import { parse as parseCookieHeader } from "cookie";
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import { sessions, users } from "../../db/schema";
import { sessionUserColumns, type SessionUser } from "~/models/user.server";
import { db, preparedQuery, type Queryable } from "./db.server";
import { settings } from "./env.server";
import { redirectWithFlash } from "./flash.server";
import { hashToken, randomToken } from "./tokens.server";

const COOKIE_NAME = "lf_session";

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie(COOKIE_NAME, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [settings().sessionSecret],
  });
  return cookie;
}

/** Secure cookies whenever the site is reached over HTTPS (directly or behind a proxy). */
export function isHttps(request: Request) {
  return new URL(request.url).protocol === "https:" || settings().appUrl.startsWith("https://");
}

/**
 * Session cookies this process has checked: the cookie's value → its id's hash. Every page of a
 * visit sends the same cookie, and checking its signature (an HMAC) and hashing the id cost about
 * 0.03 ms per request. The value is read from the header by the same parse Remix's cookie uses
 * (the `cookie` package, default decoding), so a value is found here only if Remix would check
 * exactly that value; only values whose signature held are kept, and each session has one such
 * value. Bounded: at most 10,000 values of at most 256 characters; a restart starts again.
 */
const checkedCookies = new Map<string, string>();
const CHECKED_COOKIES_MAX = 10_000;
const CHECKED_VALUE_MAX_LENGTH = 256;

/**
 * The hash of the session id in the request's cookie (what the sessions table keeps), or null;
 * also to keep this session when ending the others.
 */
export async function currentSessionHash(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header || !header.includes(COOKIE_NAME)) return null;
  const sent = parseCookieHeader(header)[COOKIE_NAME];
  const known = sent === undefined ? undefined : checkedCookies.get(sent);
  if (known !== undefined) return known;
  const value = await sessionCookie().parse(header);
  if (typeof value !== "string" || value.length === 0) return null;
  const idHash = hashToken(value);
  if (sent !== undefined && sent.length <= CHECKED_VALUE_MAX_LENGTH) {
    if (checkedCookies.size >= CHECKED_COOKIES_MAX) checkedCookies.clear();
    // A copy: the parsed value may be a slice that keeps the whole header alive.
    checkedCookies.set(Buffer.from(sent, "utf8").toString("utf8"), idHash);
  }
  return idHash;
}

/** Creates a session row and answers with the Set-Cookie header that carries its id. */
export async function createUserSession(userId: number, request: Request, database: Queryable = db) {
  const id = randomToken();
  const ttlMs = settings().sessionTtlHours * 3600_000;
  const expiresAt = new Date(Date.now() + ttlMs);
  database.insert(sessions).values({ idHash: hashToken(id), userId, expiresAt }).run();
  // Tidy up this user's long expired sessions while we are here; the worker does the rest.
  database.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date(Date.now() - EXPIRED_SESSION_KEPT_MS)))).run();
  // The browser keeps the cookie as long as the row names its account after it ran out: a form
  // sent with it then reaches the server and is kept for the login (parked-forms.server.ts), and a
  // later visit hears that the session ran out (the spec's home page). The row alone decides
  // whether someone is signed in.
  const cookieMs = ttlMs + EXPIRED_SESSION_KEPT_MS;
  return sessionCookie().serialize(id, {
    expires: new Date(Date.now() + cookieMs),
    maxAge: Math.floor(cookieMs / 1000),
    secure: isHttps(request),
  });
}

// Root and page loaders of one request ask for the same user: one query answers both.
const usersOfRequests = new WeakMap<Request, { user: Promise<SessionUser | null>; afterBody: boolean }>();

/**
 * The signed-in user, or null when there is no valid session (expired, deleted, banned). Looked
 * up once per request, and once more after its body was read: a body may take minutes to arrive,
 * and a deactivation or sign-out meanwhile counts for what the action then does (attack probe).
 */
export function getUser(request: Request): Promise<SessionUser | null> {
  const known = usersOfRequests.get(request);
  if (known && (known.afterBody || !request.bodyUsed)) return known.user;
  const user = lookUpUser(request);
  usersOfRequests.set(request, { user, afterBody: request.bodyUsed });
  return user;
}

async function lookUpUser(request: Request): Promise<SessionUser | null> {
  const idHash = await currentSessionHash(request);
  if (!idHash) return null;
  const row = sessionUserQuery().get({ idHash, now: Date.now() });
  return row ?? null;
}

// Every page of a signed-in person asks it: built once (the expiry is compared in milliseconds,
// the column's driver value).
const sessionUserQuery = preparedQuery((database) =>
  database
    .select(sessionUserColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder("idHash")), gt(sessions.expiresAt, sql.placeholder("now")), eq(users.banned, false)))
    .prepare(),
);

const FORM_NOT_SENT = "Ihr Formular wurde nicht gesendet: Bitte füllen Sie es nach dem Einloggen noch einmal aus.";
const FORM_KEPT =
  "Ihr Formular wurde noch nicht gesendet. Ihre Angaben sind eine Stunde lang aufbewahrt: Nach dem Einloggen stehen sie wieder darin.";

/**
 * The spec's messages on the way to /login: no session at all, or one that has run out. `parked`:
 * the cookie of a form kept for the login (parked-forms.server.ts), which the message then names.
 */
export async function loginRedirect(request: Request, parked?: string) {
  const url = new URL(request.url);
  const redirectTo = `${url.pathname}${url.search}`;
  const expired = (await currentSessionHash(request)) !== null;
  // A form sent meanwhile (an enrolment begun before the session ended) did not arrive: said so,
  // since the page after the login is the empty form.
  const posted = request.method !== "GET" && request.method !== "HEAD";
  return redirectWithFlash(
    `/login?${new URLSearchParams({ redirectTo })}`,
    expired
      ? { kind: "info", title: "Ihre Sitzung ist abgelaufen", message: posted ? `Bitte loggen Sie sich erneut ein. ${parked ? FORM_KEPT : FORM_NOT_SENT}` : "Bitte loggen Sie sich erneut ein." }
      : { kind: "info", title: "Sie sind nicht angemeldet. Bitte loggen Sie sich ein.", ...(posted ? { message: FORM_NOT_SENT } : {}) },
    // A cookie that no longer opens a session is cleared with it.
    expired ? { setCookie: [await sessionCookie().serialize("", { expires: new Date(0), maxAge: 0, secure: isHttps(request) }), ...(parked ? [parked] : [])] } : {},
  );
}

/**
 * The signed-in user, or null for a visitor without a session cookie. A cookie whose session has
 * ended (expired, signed out elsewhere, the account deactivated) throws the redirect to /login
 * that says so (spec part 1, home: "If a token exists but the session is not valid, the user is
 * sent to /login").
 */
export async function getUserOrExpired(request: Request): Promise<SessionUser | null> {
  const user = await getUser(request);
  if (!user && (await currentSessionHash(request)) !== null) throw await loginRedirect(request);
  return user;
}

/** The signed-in user; otherwise throws a redirect to /login that returns here afterwards. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request);
  if (!user) throw await loginRedirect(request);
  return user;
}

/** The signed-in admin; a signed-in non-admin is sent to / (the spec's admin guard). */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw redirect("/");
  return user;
}

/** Ends the session of this request and answers with the header that clears the cookie. */
export async function endSession(request: Request) {
  const idHash = await currentSessionHash(request);
  if (idHash) db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
  return sessionCookie().serialize("", { expires: new Date(0), maxAge: 0, secure: isHttps(request) });
}

/** Ends every session of a user except `keepHash` (after a password change). Synchronous, so it
 * can run inside a write transaction. */
export function endOtherSessions(userId: number, keepHash: string | null, database: Queryable = db) {
  const condition = keepHash ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepHash)) : eq(sessions.userId, userId);
  database.delete(sessions).where(condition).run();
}

export function endAllSessions(userId: number, database: Queryable = db) {
  endOtherSessions(userId, null, database);
}

/**
 * How long a session's row stays after it ran out: it opens nothing any more, but still says whose
 * it was, so that a form sent with it can be kept for that account's login (parked-forms.server.ts;
 * a phone's tab may stay open for weeks). Sessions ended on purpose (logout, deactivation, a new
 * password) are deleted at once.
 */
export const EXPIRED_SESSION_KEPT_MS = 30 * 24 * 3600_000;

export function deleteExpiredSessions(database: Queryable = db, now = Date.now()) {
  return database.delete(sessions).where(lt(sessions.expiresAt, new Date(now - EXPIRED_SESSION_KEPT_MS))).run().changes;
}

/** The account whose session (the hash of its id) has run out, not ended on purpose, or null. */
export function expiredSessionOwnerOf(idHash: string, database: Queryable = db): number | null {
  const row = database
    .select({ userId: sessions.userId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), lt(sessions.expiresAt, new Date()), eq(users.banned, false)))
    .get();
  return row?.userId ?? null;
}
