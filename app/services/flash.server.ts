// Toasts of the spec become flash messages: set before a redirect, shown once by the root in a
// role="status" region, so they work without JavaScript.
import { createCookie, redirect } from "@remix-run/node";
import { settings } from "./env.server";
import { isHttps } from "./session.server";

export type FlashKind = "success" | "info" | "danger";
export type Flash = { kind: FlashKind; title: string; message?: string };

/**
 * A signed, HttpOnly cookie of this app, made on first use (the secret comes from the settings).
 * A public https:// APP_URL makes it always Secure; otherwise per request, and the server adds
 * Secure to every cookie of an answer over HTTPS.
 */
export function appCookie(name: string, path: string, maxAge?: number) {
  let cookie: ReturnType<typeof createCookie> | undefined;
  return () =>
    (cookie ??= createCookie(name, {
      httpOnly: true,
      sameSite: "lax",
      path,
      ...(maxAge === undefined ? {} : { maxAge }),
      secrets: [settings().sessionSecret],
      secure: settings().appUrl.startsWith("https://"),
    }));
}

const flashCookie = appCookie("lf_flash", "/");

function isFlash(value: unknown): value is Flash {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    (v.kind === "success" || v.kind === "info" || v.kind === "danger") &&
    typeof v.title === "string" &&
    (v.message === undefined || typeof v.message === "string")
  );
}

export async function setFlash(flash: Flash, request?: Request) {
  return flashCookie().serialize(flash, { maxAge: 60, ...(request && isHttps(request) ? { secure: true } : {}) });
}

/** The pending flash message and the header that clears it (null when there is none). */
export async function takeFlash(request: Request): Promise<{ flash: Flash; setCookie: string } | null> {
  const header = request.headers.get("Cookie");
  if (!header || !header.includes("lf_flash")) return null;
  const value = await flashCookie().parse(header);
  if (!isFlash(value)) return null;
  const cleared = await flashCookie().serialize("", { expires: new Date(0), maxAge: 0, ...(isHttps(request) ? { secure: true } : {}) });
  return { flash: value, setCookie: cleared };
}

/** A redirect that shows `flash` on the next page; extra Set-Cookie headers ride along. */
export async function redirectWithFlash(url: string, flash: Flash, init: { setCookie?: string[]; request?: Request } = {}) {
  const headers = new Headers();
  for (const value of init.setCookie ?? []) headers.append("Set-Cookie", value);
  headers.append("Set-Cookie", await setFlash(flash, init.request));
  return redirect(url, { headers });
}

/**
 * A value the next page shows after a redirect (post/redirect/get), kept by this browser for
 * `maxAge` seconds, signed, readable by the pages under `path`. The time it was made is signed
 * with it, so the server holds to the limit too (a saved cookie is not shown later); signing out
 * clears it (forget).
 */
function shortLivedValue(name: string, path: string, maxAge: number) {
  const made = appCookie(name, path, maxAge);
  const secure = (request: Request) => (isHttps(request) ? { secure: true } : {});
  return {
    remember: (value: string, request: Request) => made().serialize(`${Date.now()} ${value}`, secure(request)),
    async read(request: Request): Promise<string | null> {
      const header = request.headers.get("Cookie");
      if (!header || !header.includes(name)) return null;
      const value: unknown = await made().parse(header);
      if (typeof value !== "string") return null;
      const space = value.indexOf(" ");
      const age = Date.now() - Number(value.slice(0, space));
      return space > 0 && age >= 0 && age <= maxAge * 1000 ? value.slice(space + 1) : null;
    },
    forget: (request: Request) => made().serialize("", { expires: new Date(0), maxAge: 0, ...secure(request) }),
  };
}

/** The address a sign-up has just mailed, for the thanks shown after its redirect (ten minutes). */
export const signedUp = shortLivedValue("lf_signup", "/signup", 600);

/** A new calendar feed's secret, shown on the account page as its address for ten minutes after it
 * is made (only its hash is stored, so it cannot be shown later), to the account that made it only. */
const newCalendarToken = shortLivedValue("lf_kalender", "/account", 600);

export function rememberCalendarToken(userId: number, token: string, request: Request) {
  return newCalendarToken.remember(`${userId} ${token}`, request);
}

/** The token this browser was shown for `userId`'s feed (the caller checks it is still the feed's). */
export async function shownCalendarToken(request: Request, userId: number) {
  const [owner, token] = (await newCalendarToken.read(request))?.split(" ") ?? [];
  return owner === String(userId) && token ? token : null;
}

/** Signing out: the short-lived values go with the session (a shared computer's next user). */
export async function forgetShortLivedValues(request: Request) {
  return [await newCalendarToken.forget(request), await signedUp.forget(request)];
}
