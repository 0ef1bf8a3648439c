import { createHash } from "node:crypto";
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleDocumentRequestFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceContext } from "~/components/nonce";
import { loadDocumentUnlessScripts } from "~/services/document-loads.server";
import { FinishedResponse } from "~/services/finished-response.server";
import { logError, requestIdOf } from "~/services/log.server";
import { installRouteMatchCache } from "~/services/route-matching.server";
import { hasSessionCookie, PERSONAL_CACHE_CONTROL } from "~/services/security.server";

export { boot, shutdown } from "~/services/boot.server";
export { guardConnections, listenProblem, SERVER_LIMITS } from "~/services/connections.server";
export { closeDatabase } from "~/services/db.server";
export { knowRoutes } from "~/services/document-loads.server";
export { answerFromCache, capturePage } from "~/services/page-cache.server";
export { maxBodyBytes } from "~/services/form.server";
export { kickMailWorker, MAIL_QUEUED } from "~/services/mail-delivery.server";
export { logError, logNotice, logRequest, newRequestId } from "~/services/log.server";
export { loadContext, remixRequest, sendRemixResponse } from "~/services/remix-adapter.server";
export {
  ALLOWED_METHODS,
  CROSS_SITE_REFUSAL,
  errorPage,
  firstForwarded,
  hasSessionCookie,
  isCrossSiteWrite,
  isMalformedHost,
  isMalformedPath,
  newNonce,
  originOf,
  PERSONAL_CACHE_CONTROL,
  securityHeaders,
} from "~/services/security.server";

installRouteMatchCache();

const ABORT_DELAY = 5_000;

/**
 * Pages are rendered completely before they are sent, which lets a page carry an ETag: a parent
 * reloading an unchanged page on a weak connection gets a 304 and no body. Only anonymous pages:
 * a page for a signed-in person (or one that sets a cookie, e.g. a flash message) is never
 * stored by any cache, since it may show personal data (an IBAN on /enroll).
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
  // Every page shows who is signed in (the header's buttons), so it differs by cookie.
  responseHeaders.append("Vary", "Cookie");
  if (isPersonal(request, responseHeaders)) {
    responseHeaders.set("Cache-Control", PERSONAL_CACHE_CONTROL);
    responseHeaders.delete("ETag");
    return new FinishedResponse(Buffer.from(html), { status: responseStatusCode, headers: responseHeaders });
  }
  // A page with scripts carries this response's nonce; a cached copy of it would not match the
  // next response's CSP, so only script-free pages are revalidated by ETag.
  const hasScripts = nonce !== undefined && html.includes(nonce);
  // Nor is any cache to keep such a page: it would be of no use, and its address may hold a token.
  if (hasScripts && !responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
  // HEAD as GET: the same validator and caching (Remix drops the body afterwards).
  if (responseStatusCode === 200 && (request.method === "GET" || request.method === "HEAD") && !hasScripts) {
    const etag = `W/"${createHash("sha1").update(html).digest("base64url")}"`;
    responseHeaders.set("ETag", etag);
    if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
    const ifNoneMatch = request.headers.get("If-None-Match");
    if (ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).includes(etag)) {
      responseHeaders.delete("Content-Type");
      return new Response(null, { status: 304, headers: responseHeaders });
    }
  }
  // As bytes: a string body would be checked character by character first (a big page: 0.3 ms).
  // Finished: the server writes them in one piece (remix-adapter.server.ts), compressed if taken.
  return new FinishedResponse(Buffer.from(html), { status: responseStatusCode, headers: responseHeaders });
};

export default handleRequest;

function isPersonal(request: Request, headers: Headers) {
  return hasSessionCookie(request.headers.get("Cookie")) || headers.has("Set-Cookie");
}

/**
 * `?_data=` answers (client-side navigation) carry a page's data: never stored by a cache. A
 * redirect to a page without scripts is followed by a document load (document-loads.server.ts).
 */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("Cache-Control", PERSONAL_CACHE_CONTROL);
  response.headers.append("Vary", "Cookie");
  loadDocumentUnlessScripts(response.headers);
  return response;
};

/**
 * Logs real failures with the request's id (the same id as its request line); an unknown address
 * (404) or a request the browser gave up is none.
 */
export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError(error, requestIdOf(context));
}
