// How often one client may sign up or change an account's address. Both answer whether an address
// already has an account (the spec's 409 text), a sign-up also hashes a password (argon2id, the
// costliest thing the server does) and mails the address. Unlimited, they let anyone list the
// association's parents, keep the workers busy and mail strangers. As with guessed passwords
// (password-tries.server.ts), the count is checked and raised in one write transaction, so
// requests sent at once cannot all pass it.
import { and, count, eq, gt, lt } from "drizzle-orm";
import { addressChecks } from "../../db/schema";
import { db, writeTransaction } from "~/services/db.server";

export const ADDRESS_CHECK_WINDOW_MS = 15 * 60_000;
/** Enough for a family, or for several behind one address (a school's network), in 15 minutes. */
export const MAX_ADDRESS_CHECKS_PER_CLIENT = 20;

/** Counts one check for the client; false when it has had its share. */
export function claimAddressCheck(clientKey: string, now = new Date()): boolean {
  const since = new Date(now.getTime() - ADDRESS_CHECK_WINDOW_MS);
  return writeTransaction((tx) => {
    const used = tx
      .select({ n: count() })
      .from(addressChecks)
      .where(and(eq(addressChecks.clientKey, clientKey), gt(addressChecks.createdAt, since)))
      .get()!.n;
    if (used >= MAX_ADDRESS_CHECKS_PER_CLIENT) return false;
    tx.insert(addressChecks).values({ clientKey }).run();
    return true;
  });
}

/** Checks older than a day say nothing any more; the hourly tidy-up removes them. */
export function deleteOldAddressChecks(now = new Date()) {
  return db.delete(addressChecks).where(lt(addressChecks.createdAt, new Date(now.getTime() - 24 * 3600_000))).run().changes;
}
