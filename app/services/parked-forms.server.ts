// A form sent after its session ran out is kept for the login that follows (decision 0020). A
// parent who began the enrolment form days ago in a tab still open (a phone keeps it) typed a
// child's health and insurance details into it; the session had ended meanwhile, the post went
// to the login, and everything typed was gone.
//
// Now such a post is read (within the form limits, as any post), sealed with AES-256-GCM under a
// new random key and stored for an hour with the account whose session it was. The key goes to
// the sending browser only, in a cookie for the form's own address, so the database alone never
// reveals what was typed. The form's page takes it back once, for that account only, and shows
// it filled in again, not sent: the parent checks it and enrols. Kept only when the session ran
// out; a session ended on purpose (logout, deactivation, a new password) keeps nothing.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { parkedForms } from "../../db/schema";
import { db, writeTransaction } from "./db.server";
import { appCookie } from "./flash.server";
import { readForm } from "./form.server";
import { currentSessionHash, expiredSessionOwnerOf, getUser, isHttps, loginRedirect } from "./session.server";
import { hashToken } from "./tokens.server";

export const PARKED_FOR_MS = 3600_000;
const COOKIE = "lf_formular";

/**
 * Signed and HttpOnly, for one hour; sent back only to the form's own address (its path is given
 * when it is set).
 */
const parkedCookie = appCookie(COOKIE, "/enroll", PARKED_FOR_MS / 1000);

function seal(key: Buffer, text: string) {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const encrypted = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), encrypted]);
}

function unseal(key: Buffer, sealed: Buffer): string | null {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** The most a kept form may take (its fields as JSON); a larger post is not kept. */
const MAX_PARKED_CHARS = 128 * 1024;

/**
 * For the action of a form worth keeping, at its address `path` (made by the caller from a checked
 * id, so it is a plain path): when this post comes with a session that has run out, its form is
 * kept and the answer is the way to /login that says so (thrown by the caller). Otherwise null,
 * and the action goes on (its own `requireUser` sends anyone else to /login). A body the limits
 * refuse, or one too large to keep, is not kept: the login says to fill the form in again.
 */
export async function parkIfSessionRanOut(request: Request, path: string, now = Date.now()): Promise<Response | null> {
  if (request.method !== "POST" || (await getUser(request))) return null;
  const idHash = await currentSessionHash(request);
  if (idHash === null || expiredSessionOwnerOf(idHash) === null) return null;
  let formData: FormData;
  try {
    formData = await readForm(request);
  } catch (refused) {
    if (refused instanceof Response) return loginRedirect(request);
    throw refused;
  }
  const fields = [...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string" && !/password/i.test(entry[0]));
  const text = JSON.stringify(fields);
  if (text.length > MAX_PARKED_CHARS) return loginRedirect(request);
  const id = randomBytes(24).toString("base64url");
  const key = randomBytes(32);
  const sealed = seal(key, text);
  const parked = writeTransaction((tx) => {
    // Asked again once the body is in (it may take minutes): a session ended meanwhile (logout,
    // deactivation, the account deleted) keeps nothing.
    const userId = expiredSessionOwnerOf(idHash, tx);
    if (userId === null) return false;
    // One kept form per account: the latest post counts (and an account cannot fill the table).
    tx.delete(parkedForms).where(eq(parkedForms.userId, userId)).run();
    tx.insert(parkedForms).values({ idHash: hashToken(id), userId, path, sealed, expiresAt: new Date(now + PARKED_FOR_MS) }).run();
    return true;
  });
  if (!parked) return loginRedirect(request);
  const cookie = await parkedCookie().serialize(`${id}.${key.toString("base64url")}`, { path, ...(isHttps(request) ? { secure: true } : {}) });
  return loginRedirect(request, cookie);
}

/**
 * For the form's loader: the form kept for `userId` at `path` in this browser, taken (deleted) at
 * once, with the header that clears its cookie; null when there is none, it is older than an hour,
 * or it was another account's.
 */
export async function takeParkedForm(request: Request, userId: number, path: string, now = Date.now()) {
  const header = request.headers.get("Cookie");
  if (!header?.includes(COOKIE)) return null;
  const value: unknown = await parkedCookie().parse(header);
  const clear = await parkedCookie().serialize("", { path, expires: new Date(0), maxAge: 0, ...(isHttps(request) ? { secure: true } : {}) });
  const [id, key] = typeof value === "string" ? value.split(".") : [];
  if (!id || !key) return null;
  const where = and(eq(parkedForms.idHash, hashToken(id)), eq(parkedForms.userId, userId), eq(parkedForms.path, path), gt(parkedForms.expiresAt, new Date(now)));
  const row = db.delete(parkedForms).where(where).returning({ sealed: parkedForms.sealed }).get();
  const text = row ? unseal(Buffer.from(key, "base64url"), row.sealed) : null;
  if (text === null) return null;
  const formData = new FormData();
  for (const [name, fieldValue] of JSON.parse(text) as [string, string][]) formData.append(name, fieldValue);
  return { formData, clearCookie: clear };
}

/** The account's kept forms: it logs out (on a shared computer nothing stays for the next). */
export function forgetParkedForms(userId: number) {
  db.delete(parkedForms).where(eq(parkedForms.userId, userId)).run();
}

/** Kept forms past their hour (the hourly tidy-up). */
export function deleteExpiredParkedForms(now = Date.now()) {
  return db.delete(parkedForms).where(lt(parkedForms.expiresAt, new Date(now))).run().changes;
}
