import { createHash } from "node:crypto";
import type { AppLoadContext, EntryContext, HandleDocumentRequestFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceContext } from "~/components/nonce";

export { boot, shutdown } from "~/services/boot.server";
export { securityHeaders, isCrossSiteWrite, CROSS_SITE_REFUSAL } from "~/services/security.server";

const ABORT_DELAY = 5_000;

/**
 * Pages are rendered completely before they are sent, which lets a page carry an ETag: a parent
 * reloading an unchanged page on a weak connection gets a 304 and no body.
 */
const handleRequest: HandleDocumentRequestFunction = (
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) => {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : undefined;
  // Loaders return plain data (nothing deferred), so the page is complete at once: rendering it
  // to a string is the quickest way, and a finished body can carry an ETag.
  const html =
    "<!DOCTYPE html>" +
    renderToString(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
    );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // A page with scripts carries this response's nonce; a cached copy of it would not match the
  // next response's CSP, so only script-free pages are revalidated by ETag.
  const hasScripts = nonce !== undefined && html.includes(nonce);
  if (responseStatusCode === 200 && request.method === "GET" && !hasScripts) {
    const etag = `W/"${createHash("sha1").update(html).digest("base64url")}"`;
    responseHeaders.set("ETag", etag);
    if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
    const ifNoneMatch = request.headers.get("If-None-Match");
    if (ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).includes(etag) && !responseHeaders.has("Set-Cookie")) {
      responseHeaders.delete("Content-Type");
      return new Response(null, { status: 304, headers: responseHeaders });
    }
  }
  return new Response(html, { status: responseStatusCode, headers: responseHeaders });
};

export default handleRequest;

/** Logs real failures; an unknown address (404) or a request the browser gave up is none. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}
