// Signing up, confirming the address, signing in (with brute-force limits) and resetting a
// forgotten password.
import { and, count, eq, gt, isNull, lt, type SQL } from "drizzle-orm";
import { loginAttempts, users } from "../../db/schema";
import { normalizeEmail } from "~/lib/email";
import { db, writeTransaction } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { queueMail } from "~/services/mail.server";
import { hashPassword, verifyPassword } from "~/services/password.server";
import { endAllSessions } from "~/services/session.server";
import { consumeToken, issueToken, mayMailAnotherLink, revokeTokens } from "./user-token.server";
import { sessionUserColumns, type SessionUser } from "./user.server";

function link(path: string) {
  return `${settings().appUrl}${path}`;
}

function queueConfirmationMail(tx: Parameters<typeof queueMail>[0], user: { id: number; email: string; firstName: string }) {
  const token = issueToken(tx, user.id, "confirm_email");
  queueMail(tx, {
    to: user.email,
    // 'Sie', as the sign-up and password pages that cause it (DECISIONS: form of address).
    subject: "Bitte bestätigen Sie Ihre E-Mail-Adresse",
    text: [
      `Hallo ${user.firstName},`,
      "",
      "vielen Dank für Ihre Registrierung bei Lagerfeuer. Bitte bestätigen Sie Ihre E-Mail-Adresse mit diesem Link:",
      "",
      link(`/konto-bestaetigen/${token}`),
      "",
      "Der Link ist 24 Stunden gültig. Wenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.",
    ].join("\n"),
  });
}

export type SignupInput = { firstName: string; lastName: string; email: string; password: string };

/** Creates an unconfirmed account with role 'user' and mails the confirmation link. */
export async function signUp(input: SignupInput): Promise<{ ok: true; email: string } | { ok: false; reason: "taken" }> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return writeTransaction((tx) => {
    const existing = tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
    if (existing) return { ok: false as const, reason: "taken" as const };
    const user = tx
      .insert(users)
      .values({ email, firstName: input.firstName, lastName: input.lastName, passwordHash, role: "user" })
      .returning({ id: users.id, email: users.email, firstName: users.firstName })
      .get();
    queueConfirmationMail(tx, user);
    return { ok: true as const, email };
  });
}

/** Confirms the address behind a confirmation link; false when the link is no longer valid. */
export function confirmEmail(token: string) {
  return writeTransaction((tx) => {
    const row = consumeToken(tx, token, "confirm_email");
    if (!row) return false;
    tx.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, row.userId)).run();
    revokeTokens(tx, row.userId, "confirm_email");
    return true;
  });
}

/** Sends a new confirmation link to an unconfirmed account; says nothing about others. */
export function resendConfirmation(email: string) {
  writeTransaction((tx) => {
    const user = tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, confirmedAt: users.emailConfirmedAt, banned: users.banned })
      .from(users)
      .where(eq(users.email, normalizeEmail(email)))
      .get();
    if (!user || user.confirmedAt || user.banned || !mayMailAnotherLink(tx, user.id, "confirm_email")) return;
    queueConfirmationMail(tx, user);
  });
}

// ---------------------------------------------------------------------------------------------
// Signing in

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failures from browsers without a device mark for the address, per address. */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Failures from browsers without a device mark, per client address. */
export const MAX_FAILURES_PER_CLIENT = 20;
/** Failures made with one device mark lock only that mark. */
export const MAX_FAILURES_PER_DEVICE = 5;

/** A fixed hash to verify against when the address is unknown, so both cases take as long. */
let dummyHash: Promise<string> | undefined;
function timingDummy() {
  dummyHash ??= hashPassword("kein-echtes-Passwort-1!");
  return dummyHash;
}

function failuresSince(since: Date, condition: SQL | undefined) {
  return db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(condition, eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, since)))
    .get()!.n;
}

/**
 * A browser with a valid device mark for the address is judged by that mark's failures alone:
 * nobody else's failures can lock it out. Any other browser is throttled by the failures of
 * unknown browsers per address and per client.
 */
function isThrottled(email: string, clientKey: string, deviceKey: string | null, now: Date) {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  if (deviceKey) return failuresSince(since, eq(loginAttempts.deviceKey, deviceKey)) >= MAX_FAILURES_PER_DEVICE;
  const unknownBrowser = isNull(loginAttempts.deviceKey);
  return (
    failuresSince(since, and(eq(loginAttempts.email, email), unknownBrowser)) >= MAX_FAILURES_PER_EMAIL ||
    failuresSince(since, and(eq(loginAttempts.clientKey, clientKey), unknownBrowser)) >= MAX_FAILURES_PER_CLIENT
  );
}

function recordAttempt(email: string, clientKey: string, deviceKey: string | null, succeeded: boolean) {
  db.insert(loginAttempts).values({ email, clientKey, deviceKey, succeeded }).run();
}

export type LoginResult =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "invalid" | "throttled" | "banned" }
  | { ok: false; reason: "unconfirmed"; email: string };

export type LoginClient = {
  /** The client address (see clientKey in request.server). */
  clientKey: string;
  /** The device key for this address when the browser has a valid device mark for it. */
  deviceKey?: string | null;
};

/** Checks the password (argon2id) within the throttle; the caller starts the session. */
export async function logIn(emailInput: string, password: string, client: LoginClient, now = new Date()): Promise<LoginResult> {
  const email = normalizeEmail(emailInput).slice(0, 254);
  const { clientKey } = client;
  const deviceKey = client.deviceKey ?? null;
  if (isThrottled(email, clientKey, deviceKey, now)) return { ok: false, reason: "throttled" };
  const user = db
    .select({ ...sessionUserColumns, passwordHash: users.passwordHash, banned: users.banned, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.email, email))
    .get();
  const valid = await verifyPassword(user?.passwordHash ?? (await timingDummy()), password);
  if (!user || !valid) {
    recordAttempt(email, clientKey, deviceKey, false);
    return { ok: false, reason: "invalid" };
  }
  recordAttempt(email, clientKey, deviceKey, true);
  if (user.banned) return { ok: false, reason: "banned" };
  if (!user.confirmedAt) return { ok: false, reason: "unconfirmed", email: user.email };
  const { passwordHash: _hash, banned: _banned, confirmedAt: _confirmed, ...sessionUser } = user;
  return { ok: true, user: sessionUser };
}

/** Attempts older than a day say nothing any more; the hourly tidy-up removes them. */
export function deleteOldLoginAttempts(now = new Date()) {
  return db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now.getTime() - 24 * 3600_000))).run().changes;
}

// ---------------------------------------------------------------------------------------------
// Forgotten password

/** Mails a reset link if the address has an account; the caller answers the same either way. */
export function requestPasswordReset(emailInput: string) {
  writeTransaction((tx) => {
    const user = tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, banned: users.banned })
      .from(users)
      .where(eq(users.email, normalizeEmail(emailInput)))
      .get();
    if (!user || user.banned || !mayMailAnotherLink(tx, user.id, "reset_password")) return;
    const token = issueToken(tx, user.id, "reset_password");
    queueMail(tx, {
      to: user.email,
      subject: "Passwort zurücksetzen",
      text: [
        `Hallo ${user.firstName},`,
        "",
        "Sie haben ein neues Passwort für Ihr Lagerfeuer-Konto angefordert. Mit diesem Link können Sie es festlegen:",
        "",
        link(`/resetPassword/${token}`),
        "",
        "Der Link ist eine Stunde gültig und funktioniert nur einmal. Wenn Sie kein neues Passwort angefordert haben, können Sie diese E-Mail ignorieren; Ihr Passwort bleibt dann unverändert.",
      ].join("\n"),
    });
  });
}

/** Sets a new password through a reset link and ends every session and every other reset link
 * of the account. */
export async function resetPassword(token: string, password: string) {
  const passwordHash = await hashPassword(password);
  return writeTransaction((tx) => {
    const row = consumeToken(tx, token, "reset_password");
    if (!row) return false;
    // Opening the mailed link also proves the address.
    tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId)).run();
    tx.update(users)
      .set({ emailConfirmedAt: new Date() })
      .where(and(eq(users.id, row.userId), isNull(users.emailConfirmedAt)))
      .run();
    endAllSessions(row.userId, tx);
    revokeTokens(tx, row.userId, "reset_password");
    return true;
  });
}
