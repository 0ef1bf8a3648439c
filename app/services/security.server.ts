// Headers every response carries, the refusal of form posts from other sites, requests the
// app does not take (methods, malformed addresses) and the plain German error page for them.
// All applied by the server (server.mjs) before Remix sees the request.
import { randomFillSync } from "node:crypto";
import { errorText } from "~/lib/http-errors";
import styles from "~/styles/app.css";

export const CROSS_SITE_REFUSAL =
  "Anfrage abgelehnt: Formulare dürfen nur von dieser Website aus gesendet werden.";

/** Browser features the app never uses: denied, so no injected or framed content can ask for them. */
const DENIED_FEATURES = [
  "accelerometer",
  "browsing-topics",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
];

const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(", ");
const cspAround = (development: boolean) => {
  const [before, after] = [
    "default-src 'self'",
    "script-src 'self' 'nonce-NONCE'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    // Remix's live reload in development talks over a WebSocket.
    development ? "connect-src 'self' ws:" : "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ]
    .join("; ")
    .split("NONCE");
  return { before, after };
};
const CSP = { production: cspAround(false), development: cspAround(true) };

/** The headers of every answer; the policy's parts are put together once, only the nonce differs. */
export function securityHeaders(options: { nonce: string; development: boolean; https?: boolean }): Record<string, string> {
  const csp = options.development ? CSP.development : CSP.production;
  return {
    "Content-Security-Policy": csp.before + options.nonce + csp.after,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    // Only over HTTPS: a browser ignores it over HTTP, and localhost must stay reachable by HTTP.
    ...(options.https ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}

const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;
const noncePool = Buffer.alloc(NONCE_BYTES * NONCES_PER_FILL);
let nextNonce = NONCES_PER_FILL;

/**
 * A fresh CSP nonce: 16 random bytes from the system's generator, base64. Drawn from a pool
 * filled 256 nonces at a time (one call into the generator instead of one per answer); each
 * nonce is used once.
 */
export function newNonce(): string {
  if (nextNonce === NONCES_PER_FILL) {
    randomFillSync(noncePool);
    nextNonce = 0;
  }
  const start = NONCE_BYTES * nextNonce++;
  return noncePool.toString("base64", start, start + NONCE_BYTES);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when a state-changing request comes from another site. Browsers send Sec-Fetch-Site
 * and/or Origin with every form post; a request with neither (curl, very old browsers) carries
 * no cross-site cookie anyway (SameSite=Lax) and is let through. `ownOrigins`: the origin the
 * request reached (protocol from the trusted proxy) and the public one of APP_URL.
 */
export function isCrossSiteWrite(request: {
  method: string;
  headers: { get(name: string): string | null };
  ownOrigins: string[];
}) {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin && !request.ownOrigins.includes(origin.toLowerCase())) return true;
  return false;
}

/** The origin of a URL as browsers send it in the Origin header (no path, default port dropped). */
export function originOf(url: string) {
  return new URL(url).origin.toLowerCase();
}

/** The methods the app answers; every other one gets 405. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"];

/** True when the path of `url` (as in the request line) cannot be percent-decoded. */
export function isMalformedPath(url: string) {
  // Only a path is a target here: a full address (`GET http://…`) or `*` names no page of ours.
  if (!url.startsWith("/")) return true;
  const pathname = url.split("?")[0];
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** A host name of letters, digits, hyphens (and underscores, as some internal names have) in
 * dot-separated labels, or an IP address in brackets, then perhaps a port. */
const HOST_AND_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?)(?::(\d{1,5}))?$/;

/**
 * True when a Host header (or X-Forwarded-Host's first value) names no host a URL can have:
 * nothing but a host in ASCII (an international name in its xn-- form) and a port (1–65535), no
 * user, path, query or escape.
 */
export function isMalformedHost(host: string | undefined) {
  if (host === undefined) return false;
  const parts = HOST_AND_PORT.exec(host);
  if (!parts) return true;
  if (parts[1] !== undefined && (Number(parts[1]) < 1 || Number(parts[1]) > 65535)) return true;
  try {
    return new URL(`http://${host}/`).host === "";
  } catch {
    return true;
  }
}

/** The first value of a header a chain of proxies appends to (X-Forwarded-Host), as express reads it. */
export function firstForwarded(value: string | string[] | undefined) {
  return value === undefined ? undefined : String(value).split(",")[0].trim();
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A small German error page in plain HTML, for answers the server gives without Remix (a
 * malformed address, a method the app does not take, an error that reached express).
 */
export function errorPage(status: number) {
  const { title, message } = errorText(status);
  // With the app's stylesheet and header, as the error pages Remix draws (a same-site file the
  // CSP allows); without scripts.
  const body =
    "<!DOCTYPE html>" +
    '<html lang="de"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)} – Lagerfeuer</title>` +
    `<link rel="stylesheet" href="${styles}">` +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>' +
    '<body><header class="site-header"><div class="inner"><a href="/" class="logo"><span>Lagerfeuer</span></a></div></header>' +
    `<main id="inhalt"><section class="error-page"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
    '<p><a href="/" class="button">Zur Startseite</a></p></section></main></body></html>';
  return {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    body,
  };
}

const SESSION_COOKIE = /(?:^|;)\s*lf_session=/;

/** True when the request carries a session cookie (its answer may be personal). */
export function hasSessionCookie(cookieHeader: string | null | undefined) {
  return !!cookieHeader && SESSION_COOKIE.test(cookieHeader);
}

/** What a personal answer (for a signed-in person, or one that sets a cookie) says to caches. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";
