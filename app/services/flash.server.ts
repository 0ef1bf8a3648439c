// Toasts of the spec become flash messages: set before a redirect, shown once by the root in a
// role="status" region, so they work without JavaScript.
import { createCookie, redirect } from "@remix-run/node";
import { settings } from "./env.server";
import { isHttps } from "./session.server";

export type FlashKind = "success" | "info" | "danger";
export type Flash = { kind: FlashKind; title: string; message?: string };

let cookie: ReturnType<typeof createCookie> | undefined;
function flashCookie() {
  cookie ??= createCookie("lf_flash", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [settings().sessionSecret],
    // A public https:// APP_URL: always Secure. Otherwise per request (takeFlash), and the server
    // adds Secure to every cookie of an answer over HTTPS.
    secure: settings().appUrl.startsWith("https://"),
  });
  return cookie;
}

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

let signupCookie: ReturnType<typeof createCookie> | undefined;
function signedUpCookie() {
  signupCookie ??= createCookie("lf_signup", {
    httpOnly: true,
    sameSite: "lax",
    path: "/signup",
    maxAge: 3600,
    secrets: [settings().sessionSecret],
    secure: settings().appUrl.startsWith("https://"),
  });
  return signupCookie;
}

/** The address a sign-up has just mailed, for the thanks shown after its redirect. */
export function rememberSignup(email: string, request: Request) {
  return signedUpCookie().serialize(email, isHttps(request) ? { secure: true } : {});
}

/** The address this browser signed up with in the last hour, if any. */
export async function signedUpAddress(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header || !header.includes("lf_signup")) return null;
  const value: unknown = await signedUpCookie().parse(header);
  return typeof value === "string" ? value : null;
}
