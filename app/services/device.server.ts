// Device marks (OWASP: "Slow down online guessing attacks with device cookies"). A browser that
// has signed in to an account, or set its password through the mailed link, gets a signed,
// long-lived cookie that names the account (by a keyed hash of its id, so that a new address
// keeps the mark valid) and carries a random nonce. Failed sign-ins from browsers without such a mark
// are throttled per address and per client; a browser with a valid mark for the address is
// judged only by the failures made with that very mark, so nobody else can lock it out.
import { createHmac } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { settings } from "./env.server";
import { isHttps } from "./session.server";
import { hashToken, randomToken } from "./tokens.server";

const COOKIE_NAME = "lf_device";
/** Accounts remembered per browser (a family computer, a leader with two accounts). */
export const DEVICE_MARKS_MAX = 5;
const MAX_AGE_SECONDS = 365 * 24 * 3600;

export type DeviceMark = { account: string; nonce: string };

let cookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  cookie ??= createCookie(COOKIE_NAME, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: MAX_AGE_SECONDS,
    secrets: [settings().sessionSecret],
  });
  return cookie;
}

/** Which account a mark belongs to, without writing the account's id (or a guessable hash of
 * it) into the cookie. */
function accountKey(userId: number) {
  return createHmac("sha256", settings().sessionSecret).update(`device-mark:user:${userId}`).digest("base64url").slice(0, 22);
}

function isMark(value: unknown): value is DeviceMark {
  if (typeof value !== "object" || value === null) return false;
  const { account, nonce } = value as Record<string, unknown>;
  return typeof account === "string" && typeof nonce === "string" && account.length <= 64 && nonce.length <= 64;
}

/** The marks of this browser; none when the cookie is missing, forged or malformed. */
export async function readDeviceMarks(request: Request): Promise<DeviceMark[]> {
  const header = request.headers.get("Cookie");
  if (!header || !header.includes(COOKIE_NAME)) return [];
  let value: unknown;
  try {
    value = await deviceCookie().parse(header); // null when the signature does not match
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.filter(isMark).slice(0, DEVICE_MARKS_MAX) : [];
}

/** The key the throttle counts this browser's failures under for this account, or null when the
 * browser has no valid mark for it, or there is no such account (then it is an unknown browser). */
export function deviceKeyFor(marks: DeviceMark[], userId: number | undefined): string | null {
  if (userId === undefined || marks.length === 0) return null;
  const account = accountKey(userId);
  const mark = marks.find((m) => m.account === account);
  return mark ? hashToken(mark.nonce) : null;
}

/** After a successful sign-in or a password set through the mailed link: a fresh mark for this
 * account first, at most DEVICE_MARKS_MAX. */
export function markDevice(request: Request, marks: DeviceMark[], userId: number) {
  const account = accountKey(userId);
  const next = [{ account, nonce: randomToken() }, ...marks.filter((m) => m.account !== account)].slice(0, DEVICE_MARKS_MAX);
  return deviceCookie().serialize(next, { secure: isHttps(request) });
}
