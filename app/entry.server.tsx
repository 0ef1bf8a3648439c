import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDocumentRequestFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "~/components/nonce";

export { boot, shutdown } from "~/services/boot.server";
export { securityHeaders, isCrossSiteWrite, CROSS_SITE_REFUSAL } from "~/services/security.server";

const ABORT_DELAY = 5_000;

/**
 * Pages are rendered completely before they are sent (we stream nothing: loaders return plain
 * data), which lets every page carry an ETag: a parent reloading an unchanged page on a weak
 * connection gets a 304 and no body.
 */
const handleRequest: HandleDocumentRequestFunction = (
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) => {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : undefined;
  return new Promise((resolve, reject) => {
    let didError = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = [];
          const sink = new PassThrough();
          sink.on("data", (chunk: Buffer) => chunks.push(chunk));
          sink.on("error", reject);
          sink.on("end", () => {
            const body = Buffer.concat(chunks);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            const status = didError ? 500 : responseStatusCode;
            // A page with scripts carries this response's nonce; a cached copy of it would not
            // match the next response's CSP, so only script-free pages are revalidated by ETag.
            const hasScripts = nonce !== undefined && body.includes(nonce);
            if (status === 200 && request.method === "GET" && !hasScripts) {
              const etag = `W/"${createHash("sha1").update(body).digest("base64url")}"`;
              responseHeaders.set("ETag", etag);
              if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
              const ifNoneMatch = request.headers.get("If-None-Match");
              if (ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).includes(etag) && !responseHeaders.has("Set-Cookie")) {
                responseHeaders.delete("Content-Type");
                resolve(new Response(null, { status: 304, headers: responseHeaders }));
                return;
              }
            }
            resolve(new Response(body, { status, headers: responseHeaders }));
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          didError = true;
          console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
};

export default handleRequest;

/** Logs real failures; an unknown address (404) or a request the browser gave up is none. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}
