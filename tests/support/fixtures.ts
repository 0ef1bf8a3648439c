// Test fixtures: people and sessions written straight into the database under test.
import { eq, sql } from "drizzle-orm";
import { users, type Role } from "../../db/schema";
import { db } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";
import { createUserSession } from "~/services/session.server";

let counter = 0;

export async function createUser(
  options: { role?: Role; email?: string; password?: string; firstName?: string; lastName?: string; banned?: boolean; confirmed?: boolean } = {},
) {
  counter++;
  const password = options.password ?? "Sicheres-Passwort-1";
  const email = (options.email ?? `person${counter}-${process.pid}-${Date.now()}@example.org`).toLowerCase();
  const user = db
    .insert(users)
    .values({
      email,
      firstName: options.firstName ?? "Erika",
      lastName: options.lastName ?? `Muster${counter}`,
      passwordHash: await hashPassword(password),
      role: options.role ?? "user",
      banned: options.banned ?? false,
      emailConfirmedAt: options.confirmed === false ? null : new Date(),
    })
    .returning()
    .get();
  return { ...user, password };
}

/** A session for `userId`, as the value of a Cookie request header. */
export async function sessionCookieFor(userId: number) {
  const setCookie = await createUserSession(userId, new Request("http://localhost/"));
  return setCookie.split(";")[0];
}

/** A session for `userId` as Playwright wants it. */
export async function browserSessionCookie(userId: number, baseUrl: string) {
  const [name, ...rest] = (await sessionCookieFor(userId)).split("=");
  return { name, value: rest.join("="), url: baseUrl, httpOnly: true, sameSite: "Lax" as const };
}

export function banUser(userId: number) {
  db.update(users).set({ banned: true }).where(eq(users.id, userId)).run();
}

/** Lets the running test call console.error or log an error (for tests that provoke a logged failure). */
export function allowConsoleErrors() {
  (globalThis as unknown as { __allowConsoleErrors?: boolean }).__allowConsoleErrors = true;
}

/** The JSON lines the logger wrote to stderr so far in the running test (tests/support/setup.ts). */
export function loggedErrors(): Record<string, unknown>[] {
  const written = (globalThis as unknown as { __stderrWrites?: string[] }).__stderrWrites ?? [];
  return written
    .join("")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Empties every table (in an order the foreign keys allow), for tests that start from nothing. */
export function resetDatabase() {
  db.transaction((tx) => {
    for (const table of [
      "event_mail_recipients", "event_mails", "group_members", "event_groups", "registration_history", "registrations", "enrolments", "sepa_mandates", "comments",
      "legal_document_versions", "legal_documents", "files", "event_helpers", "event_owners", "events", "participants", "guardians",
      "sessions", "user_tokens", "login_attempts", "mail_outbox", "audit_log", "form_submissions", "job_runs", "users",
    ]) {
      tx.run(sql.raw(`delete from ${table}`));
    }
  });
}
