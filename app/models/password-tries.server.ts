// Limits on guessing a password: the sign-in and the account's password change (which asks for
// the current one) share them, since both check the same secret. Each try is counted before its
// password is checked: the throttle's check and the try's row are one write transaction, so
// guesses sent at once cannot all pass the check before the first failure is written (an attack
// probe sent 300 at once and had every one checked). A try is written as a failure and marked
// succeeded once its password proved right.
import { and, count, eq, gt, isNull, lt, type SQL } from "drizzle-orm";
import { loginAttempts } from "../../db/schema";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { hashPassword, verifyPassword } from "~/services/password.server";

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failures from browsers without a device mark for the address, per address. */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Failures from browsers without a device mark, per client address. */
export const MAX_FAILURES_PER_CLIENT = 20;
/** Failures made with one device mark lock only that mark. */
export const MAX_FAILURES_PER_DEVICE = 5;

export type PasswordClient = {
  /** The client address (see clientKey in request.server). */
  clientKey: string;
  /** The device key for this address when the browser has a valid device mark for it. */
  deviceKey?: string | null;
};

function failuresSince(tx: Queryable, since: Date, condition: SQL | undefined) {
  return tx
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
function isThrottled(tx: Queryable, email: string, clientKey: string, deviceKey: string | null, now: Date) {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  if (deviceKey) return failuresSince(tx, since, eq(loginAttempts.deviceKey, deviceKey)) >= MAX_FAILURES_PER_DEVICE;
  const unknownBrowser = isNull(loginAttempts.deviceKey);
  return (
    failuresSince(tx, since, and(eq(loginAttempts.email, email), unknownBrowser)) >= MAX_FAILURES_PER_EMAIL ||
    failuresSince(tx, since, and(eq(loginAttempts.clientKey, clientKey), unknownBrowser)) >= MAX_FAILURES_PER_CLIENT
  );
}

/** A fixed hash to verify against when the address is unknown, so both cases take as long. */
let dummyHash: Promise<string> | undefined;
function timingDummy() {
  dummyHash ??= hashPassword("kein-echtes-Passwort-1!");
  return dummyHash;
}

/**
 * Checks `password` against `passwordHash` (an unknown address: null, checked against a dummy so
 * it takes as long) within the limits of `email` (normalized) and the client.
 */
export async function checkPasswordTry(
  email: string,
  passwordHash: string | null,
  password: string,
  client: PasswordClient,
  now = new Date(),
): Promise<"valid" | "invalid" | "throttled"> {
  const deviceKey = client.deviceKey ?? null;
  const tryId = writeTransaction((tx) => {
    if (isThrottled(tx, email, client.clientKey, deviceKey, now)) return null;
    return tx.insert(loginAttempts).values({ email, clientKey: client.clientKey, deviceKey, succeeded: false }).returning({ id: loginAttempts.id }).get().id;
  });
  if (tryId === null) return "throttled";
  const valid = await verifyPassword(passwordHash ?? (await timingDummy()), password);
  if (!passwordHash || !valid) return "invalid";
  db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, tryId)).run();
  return "valid";
}

/** Tries older than a day say nothing any more; the hourly tidy-up removes them. */
export function deleteOldLoginAttempts(now = new Date()) {
  return db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now.getTime() - 24 * 3600_000))).run().changes;
}
