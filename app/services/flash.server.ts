// Toasts of the spec become flash messages: set before a redirect, shown once by the root in a
// role="status" region, so they work without JavaScript.
import { createCookie, redirect } from "@remix-run/node";
import { settings } from "./env.server";

export type FlashKind = "success" | "info" | "danger";
export type Flash = { kind: FlashKind; title: string; message?: string };

let cookie: ReturnType<typeof createCookie> | undefined;
function flashCookie() {
  cookie ??= createCookie("lf_flash", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [settings().sessionSecret],
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

export async function setFlash(flash: Flash) {
  return flashCookie().serialize(flash, { maxAge: 60 });
}

/** The pending flash message and the header that clears it (null when there is none). */
export async function takeFlash(request: Request): Promise<{ flash: Flash; setCookie: string } | null> {
  const header = request.headers.get("Cookie");
  if (!header || !header.includes("lf_flash")) return null;
  const value = await flashCookie().parse(header);
  if (!isFlash(value)) return null;
  return { flash: value, setCookie: await flashCookie().serialize("", { expires: new Date(0), maxAge: 0 }) };
}

/** A redirect that shows `flash` on the next page; extra Set-Cookie headers ride along. */
export async function redirectWithFlash(url: string, flash: Flash, init: { setCookie?: string[] } = {}) {
  const headers = new Headers();
  for (const value of init.setCookie ?? []) headers.append("Set-Cookie", value);
  headers.append("Set-Cookie", await setFlash(flash));
  return redirect(url, { headers });
}
