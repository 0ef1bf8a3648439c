// Signing up, confirming the address, signing in (with brute-force limits) and resetting a
// forgotten password.
import { and, eq, isNull } from "drizzle-orm";
import { formSubmissions, users } from "../../db/schema";
import { normalizeEmail } from "~/lib/email";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { GREETING, queueMail } from "~/services/mail.server";
import { hashPassword } from "~/services/password.server";
import { endAllSessions } from "~/services/session.server";
import { claimAddressCheck } from "./address-checks.server";
import { recordSubmission } from "./form-submission.server";
import { checkPasswordTry } from "./password-tries.server";
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
      "",
      GREETING.sie,
    ].join("\n"),
  });
}

export type SignupInput = { firstName: string; lastName: string; email: string; password: string };

/**
 * Creates an unconfirmed account with role 'user' and mails the confirmation link. Counted per
 * client (address-checks.server.ts); a taken address is answered before the password is hashed.
 * The same form sent again (its one-time key: a double tap while the password is hashed) is
 * answered as the first was, not as a taken address.
 */
export async function signUp(
  input: SignupInput,
  clientKey: string,
  submissionKey: string | null = null,
): Promise<{ ok: true; email: string } | { ok: false; reason: "taken" | "throttled" }> {
  const email = normalizeEmail(input.email);
  const sameForm = (tx: Queryable) =>
    submissionKey !== null &&
    tx
      .select({ id: users.id })
      .from(formSubmissions)
      .innerJoin(users, eq(users.id, formSubmissions.userId))
      .where(and(eq(formSubmissions.key, submissionKey), eq(users.email, email)))
      .get() !== undefined;
  if (sameForm(db)) return { ok: true, email };
  if (!claimAddressCheck(clientKey)) return { ok: false, reason: "throttled" };
  const taken = (tx: Queryable) => tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get() !== undefined;
  if (taken(db)) return { ok: false, reason: "taken" };
  const passwordHash = await hashPassword(input.password);
  return writeTransaction((tx) => {
    // Signed up meanwhile: by this same form, or by another.
    if (taken(tx)) return sameForm(tx) ? { ok: true as const, email } : { ok: false as const, reason: "taken" as const };
    const user = tx
      .insert(users)
      .values({ email, firstName: input.firstName, lastName: input.lastName, passwordHash, role: "user" })
      .returning({ id: users.id, email: users.email, firstName: users.firstName })
      .get();
    queueConfirmationMail(tx, user);
    recordSubmission(tx, submissionKey, user.id, "/signup?gesendet");
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

/** Links sent again or to reset a password: as many per client as sign-ups (address-checks). */
export type LinkRequest = "done" | "throttled";

/** Sends a new confirmation link to an unconfirmed account; says nothing about others. */
export function resendConfirmation(email: string, clientKey: string): LinkRequest {
  if (!claimAddressCheck(clientKey)) return "throttled";
  writeTransaction((tx) => {
    const user = tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, confirmedAt: users.emailConfirmedAt, banned: users.banned })
      .from(users)
      .where(eq(users.email, normalizeEmail(email)))
      .get();
    if (!user || user.confirmedAt || user.banned || !mayMailAnotherLink(tx, user.id, "confirm_email")) return;
    queueConfirmationMail(tx, user);
  });
  return "done";
}

// ---------------------------------------------------------------------------------------------
// Signing in

export type LoginResult =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "invalid" | "throttled" | "banned" }
  | { ok: false; reason: "unconfirmed"; email: string };

/** Checks the password (argon2id) within the limits on guessing; the caller starts the session. */
export async function logIn(
  emailInput: string,
  password: string,
  client: { clientKey: string; deviceKeyOf: (userId: number | undefined) => string | null },
  now = new Date(),
): Promise<LoginResult> {
  const email = normalizeEmail(emailInput).slice(0, 254);
  const user = db
    .select({ ...sessionUserColumns, passwordHash: users.passwordHash, banned: users.banned, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.email, email))
    .get();
  // The browser's mark names the account, found by the address (none for an unknown address).
  const checked = await checkPasswordTry(email, user?.passwordHash ?? null, password, { clientKey: client.clientKey, deviceKey: client.deviceKeyOf(user?.id) }, now);
  if (checked === "throttled") return { ok: false, reason: "throttled" };
  if (!user || checked === "invalid") return { ok: false, reason: "invalid" };
  if (user.banned) return { ok: false, reason: "banned" };
  if (!user.confirmedAt) return { ok: false, reason: "unconfirmed", email: user.email };
  const { passwordHash: _hash, banned: _banned, confirmedAt: _confirmed, ...sessionUser } = user;
  return { ok: true, user: sessionUser };
}

// ---------------------------------------------------------------------------------------------
// Forgotten password

/** Mails a reset link if the address has an account; the caller answers the same either way. */
export function requestPasswordReset(emailInput: string, clientKey: string): LinkRequest {
  if (!claimAddressCheck(clientKey)) return "throttled";
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
        "",
        GREETING.sie,
      ].join("\n"),
    });
  });
  return "done";
}

/** What a client that asked too often reads (a 429), the same on both link forms. */
export const LINKS_THROTTLED = {
  title: "Zu viele Anfragen",
  message: "Zu viele Anfragen von diesem Anschluss. Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.",
};

/** Sets a new password through a reset link and ends every session and every other reset link
 * of the account; the account's id, or null when the link is not (or no longer) valid. */
export async function resetPassword(token: string, password: string): Promise<number | null> {
  const passwordHash = await hashPassword(password);
  return writeTransaction((tx) => {
    const row = consumeToken(tx, token, "reset_password");
    if (!row) return null;
    // Opening the mailed link also proves the address.
    tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId)).run();
    tx.update(users)
      .set({ emailConfirmedAt: new Date() })
      .where(and(eq(users.id, row.userId), isNull(users.emailConfirmedAt)))
      .run();
    endAllSessions(row.userId, tx);
    revokeTokens(tx, row.userId, "reset_password");
    return row.userId;
  });
}
