import { createHash, randomBytes } from "node:crypto";

/** A random, URL-safe secret (256 bits). */
export function randomToken() {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a secret token: its SHA-256, so a leaked table opens nothing. */
export function hashToken(token: string) {
  return createHash("sha256").update(token).digest("base64url");
}
