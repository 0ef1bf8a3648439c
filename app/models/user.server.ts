import { randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { users, type Role } from "../../db/schema";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";

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

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

export function findUserByEmail(email: string, database: Queryable = db) {
  return database
    .select({ ...sessionUserColumns, passwordHash: users.passwordHash, banned: users.banned, emailConfirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
}

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
