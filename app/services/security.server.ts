// Headers every response carries, and the refusal of form posts from other sites. Both are
// applied by the server (server.mjs) before Remix sees the request.

export const CROSS_SITE_REFUSAL =
  "Anfrage abgelehnt: Formulare dürfen nur von dieser Website aus gesendet werden.";

export function securityHeaders(options: { nonce: string; development: boolean }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    // Remix's live reload in development talks over a WebSocket.
    options.development ? "connect-src 'self' ws:" : "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when a state-changing request comes from another site. Browsers send Sec-Fetch-Site
 * and/or Origin with every form post; a request with neither (curl, very old browsers) carries
 * no cross-site cookie anyway (SameSite=Lax) and is let through.
 */
export function isCrossSiteWrite(request: {
  method: string;
  headers: { get(name: string): string | null };
  ownOrigin: string;
}) {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin && origin !== request.ownOrigin) return true;
  return false;
}
