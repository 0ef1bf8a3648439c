import { randomBytes } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { users, type Role } from "../../db/schema";
import { normalizeEmail } from "~/lib/email";
import { db, writeTransaction } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { GREETING, queueMail } from "~/services/mail.server";
import { hashPassword } from "~/services/password.server";
import { endAllSessions, endOtherSessions } from "~/services/session.server";
import { claimAddressCheck } from "./address-checks.server";
import { checkPasswordTry, type PasswordClient } from "./password-tries.server";
import { consumeToken, issueToken, revokeTokens } from "./user-token.server";

export type SessionUser = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
};

export const sessionUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
} as const;

/**
 * On an empty database: one confirmed admin from ADMIN_EMAIL and ADMIN_PASSWORD, or with a
 * generated password that is returned so the caller can print it once.
 */
export async function ensureInitialAdmin(options: { email: string; password?: string }) {
  const existing = db.select({ n: count() }).from(users).get();
  if (existing && existing.n > 0) return null;
  const password = options.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return writeTransaction((tx) => {
    // Checked again under the write lock: two processes starting at once create one admin.
    const again = tx.select({ n: count() }).from(users).get();
    if (again && again.n > 0) return null;
    const admin = tx
      .insert(users)
      .values({
        email: normalizeEmail(options.email),
        firstName: "Admin",
        lastName: "Lagerfeuer",
        passwordHash,
        role: "admin",
        emailConfirmedAt: new Date(),
      })
      .returning({ id: users.id, email: users.email })
      .get();
    return { ...admin, generatedPassword: options.password ? undefined : password };
  });
}

/** A password that meets the spec's rules: upper, lower, digit and special character. */
function generatePassword() {
  return `Lf-${randomBytes(12).toString("base64url")}-7a`;
}

// ---------------------------------------------------------------------------------------------
// The account page

export function getAccount(userId: number) {
  return db.select(sessionUserColumns).from(users).where(eq(users.id, userId)).get() ?? null;
}

export function updateNames(userId: number, names: { firstName: string; lastName: string }) {
  return db.update(users).set(names).where(eq(users.id, userId)).run().changes === 1;
}

function appLink(path: string) {
  return `${settings().appUrl}${path}`;
}

/**
 * An e-mail change takes effect when the link mailed to the current address is opened: whoever
 * took over a session cannot move the account to their own address.
 */
export function requestEmailChange(
  userId: number,
  newEmailInput: string,
  clientKey: string,
): { ok: true } | { ok: false; reason: "taken" | "same" | "throttled" } {
  const newEmail = normalizeEmail(newEmailInput);
  // It tells whether an address has an account, as a sign-up does: counted the same way.
  if (!claimAddressCheck(clientKey)) return { ok: false, reason: "throttled" };
  return writeTransaction((tx) => {
    const user = tx.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId)).get();
    if (!user) throw new Error(`no user ${userId}`);
    if (user.email === newEmail) return { ok: false as const, reason: "same" as const };
    const taken = tx.select({ id: users.id }).from(users).where(eq(users.email, newEmail)).get();
    if (taken) return { ok: false as const, reason: "taken" as const };
    const token = issueToken(tx, user.id, "change_email", newEmail);
    queueMail(tx, {
      to: user.email,
      subject: "Änderung deiner E-Mail-Adresse bestätigen",
      text: [
        `Hallo ${user.firstName},`,
        "",
        `für dein Lagerfeuer-Konto wurde eine neue E-Mail-Adresse angegeben: ${newEmail}`,
        "Mit diesem Link bestätigst du die Änderung:",
        "",
        appLink(`/email-bestaetigen/${token}`),
        "",
        "Der Link ist 24 Stunden gültig. Bis dahin bleibt deine bisherige Adresse gültig. Wenn du die Änderung nicht veranlasst hast, ignoriere diese E-Mail und ändere am besten dein Passwort.",
        "",
        GREETING.du,
      ].join("\n"),
    });
    return { ok: true as const };
  });
}

/** Applies a confirmed e-mail change and ends the user's other sessions: every session but
 * `keepSessionHash` (the one that opened the link, if it is the user's). */
export function confirmEmailChange(
  token: string,
  keepSessionHash: string | null = null,
): { status: "changed"; userId: number; email: string } | { status: "invalid" | "taken" } {
  return writeTransaction((tx) => {
    const row = consumeToken(tx, token, "change_email");
    if (!row?.newEmail) return { status: "invalid" as const };
    const taken = tx.select({ id: users.id }).from(users).where(eq(users.email, row.newEmail)).get();
    if (taken) return { status: "taken" as const };
    tx.update(users).set({ email: row.newEmail, emailConfirmedAt: new Date() }).where(eq(users.id, row.userId)).run();
    endOtherSessions(row.userId, keepSessionHash, tx);
    return { status: "changed" as const, userId: row.userId, email: row.newEmail };
  });
}

/** An admin sets another user's address directly; both addresses are told (a mail each, answers
 * to the admin), and every session of the user ends. */
export function changeEmailByAdmin(userId: number, newEmailInput: string, adminEmail: string): { ok: true } | { ok: false; reason: "taken" | "same" } {
  const newEmail = normalizeEmail(newEmailInput);
  return writeTransaction((tx) => {
    const user = tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId)).get();
    if (!user) throw new Error(`no user ${userId}`);
    if (user.email === newEmail) return { ok: false as const, reason: "same" as const };
    if (tx.select({ id: users.id }).from(users).where(eq(users.email, newEmail)).get()) {
      return { ok: false as const, reason: "taken" as const };
    }
    tx.update(users).set({ email: newEmail, emailConfirmedAt: new Date() }).where(eq(users.id, userId)).run();
    endAllSessions(userId, tx);
    for (const to of [user.email, newEmail]) {
      queueMail(tx, {
        to,
        replyTo: adminEmail,
        subject: "Deine E-Mail-Adresse wurde geändert",
        text: [
          `Hallo ${user.firstName},`,
          "",
          `ein Admin hat die E-Mail-Adresse deines Lagerfeuer-Kontos von ${user.email} in ${newEmail} geändert.`,
          "Ab jetzt meldest du dich mit der neuen Adresse an. Wenn das nicht richtig ist, antworte bitte auf diese E-Mail.",
          "",
          GREETING.du,
        ].join("\n"),
      });
    }
    return { ok: true as const };
  });
}

/**
 * Checks the account's current password as a try of its own, within the same limits on guessing
 * as the sign-in (a session left open must not let anyone guess the password and change it).
 */
export async function checkCurrentPassword(userId: number, current: string, client: PasswordClient) {
  const row = db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  if (!row) return "invalid" as const;
  return checkPasswordTry(row.email, row.passwordHash, current, client);
}

/** Changes the password after checking the current one; the user's other sessions and every
 * reset link issued before end. */
export async function changePassword(
  userId: number,
  current: string,
  next: string,
  keepSessionHash: string | null,
  client: PasswordClient,
): Promise<"changed" | "invalid" | "throttled"> {
  const checked = await checkCurrentPassword(userId, current, client);
  if (checked !== "valid") return checked;
  const passwordHash = await hashPassword(next);
  writeTransaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    endOtherSessions(userId, keepSessionHash, tx);
    revokeTokens(tx, userId, "reset_password");
  });
  return "changed";
}

/**
 * Bans or unbans a user (what the admin panel calls). A ban ends every session and every unused
 * mailed link of the user in the same transaction, so an unban does not revive an old cookie or
 * link. The last admin who is not banned cannot be banned.
 */
export function setUserBanned(userId: number, banned: boolean): { ok: true } | { ok: false; reason: "not_found" | "last_admin" } {
  return writeTransaction((tx) => {
    const user = tx.select({ role: users.role, banned: users.banned }).from(users).where(eq(users.id, userId)).get();
    if (!user) return { ok: false as const, reason: "not_found" as const };
    if (banned && user.role === "admin" && !user.banned) {
      const admins = tx.select({ n: count() }).from(users).where(and(eq(users.role, "admin"), eq(users.banned, false))).get()!.n;
      if (admins <= 1) return { ok: false as const, reason: "last_admin" as const };
    }
    tx.update(users).set({ banned }).where(eq(users.id, userId)).run();
    if (banned) {
      endAllSessions(userId, tx);
      revokeTokens(tx, userId);
    }
    return { ok: true as const };
  });
}

