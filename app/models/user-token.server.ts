// Single-use links mailed to people: e-mail confirmation, password reset, e-mail change.
// Only a hash of the token is stored; a token works once and only until it expires.
import { and, count, eq, gt, isNull } from "drizzle-orm";
import { userTokens, type TokenPurpose } from "../../db/schema";
import type { Queryable } from "~/services/db.server";
import { hashToken, randomToken } from "~/services/tokens.server";

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  confirm_email: 24 * 3600_000,
  reset_password: 3600_000,
  change_email: 24 * 3600_000,
};

/** Ends every unused token of a user, of one purpose or (without one) of all purposes. */
export function revokeTokens(tx: Queryable, userId: number, purpose?: TokenPurpose, now = new Date()) {
  tx.update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), purpose ? eq(userTokens.purpose, purpose) : undefined, isNull(userTokens.usedAt)))
    .run();
}

/**
 * Links of one purpose mailed to one account per hour at most (password reset, confirmation): a
 * stranger who asks again and again fills no one's mailbox, and the links already mailed work on.
 */
export const LINKS_PER_HOUR = 5;

/** True while the account may get another link of `purpose` this hour. */
export function mayMailAnotherLink(tx: Queryable, userId: number, purpose: TokenPurpose, now = new Date()) {
  const since = new Date(now.getTime() - 3600_000);
  const recent = tx
    .select({ n: count() })
    .from(userTokens)
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), gt(userTokens.createdAt, since)))
    .get();
  return (recent?.n ?? 0) < LINKS_PER_HOUR;
}

/**
 * A new token for `purpose`. A new e-mail change ends the earlier ones (they name another
 * address). Reset and confirmation links already mailed keep working until one is used or they
 * expire: anyone can ask for one for any address, and asking must not end the person's own link.
 */
export function issueToken(tx: Queryable, userId: number, purpose: TokenPurpose, newEmail: string | null = null) {
  const now = new Date();
  if (purpose === "change_email") revokeTokens(tx, userId, purpose, now);
  const token = randomToken();
  tx.insert(userTokens)
    .values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      newEmail,
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    })
    .run();
  return token;
}

function usable(token: string, purpose: TokenPurpose, now: Date) {
  return and(
    eq(userTokens.tokenHash, hashToken(token)),
    eq(userTokens.purpose, purpose),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, now),
  );
}

/** Uses up a valid token; null when it is unknown, expired, already used or of another kind. */
export function consumeToken(tx: Queryable, token: string, purpose: TokenPurpose) {
  const now = new Date();
  const row = tx
    .select({ id: userTokens.id, userId: userTokens.userId, newEmail: userTokens.newEmail })
    .from(userTokens)
    .where(usable(token, purpose, now))
    .get();
  if (!row) return null;
  tx.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, row.id)).run();
  return row;
}

/** Whether a token could still be used (for showing a form before it is submitted). */
export function isTokenUsable(tx: Queryable, token: string, purpose: TokenPurpose) {
  return tx.select({ id: userTokens.id }).from(userTokens).where(usable(token, purpose, new Date())).get() !== undefined;
}
