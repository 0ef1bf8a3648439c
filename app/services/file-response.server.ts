// Answers with a stored file, streamed from disk.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { errorPage } from "./security.server";

/**
 * Files of an event everyone may see: the same for everyone (`public`, so a signed-in person's
 * browser keeps them too), kept long by the browser, but only five minutes by a shared cache (a
 * proxy, a CDN), so a file a lead deleted, or one of an event made staff-only, is soon gone there.
 */
/**
 * Files only staff or admins may see (a staff-only event's, a legal document's older versions):
 * never stored, as every answer to a signed-in person (server.mjs says so for all of them).
 */
export const PERSONAL_FILE_CACHE_CONTROL = "private, no-store";

export const SHARED_FILE_CACHE_CONTROL = {
  picture: "public, max-age=31536000, s-maxage=300, immutable",
  attachment: "public, max-age=86400, s-maxage=300",
} as const;

/** `filename*` for Content-Disposition: the display name, UTF-8, safe in a header. */
export function contentDisposition(kind: "inline" | "attachment", displayName: string) {
  const ascii = displayName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(displayName)}`;
}

/**
 * What a file address that leads nowhere answers (a deleted attachment, an old mail's link): the
 * German 404 page with the way home, as every other missing page; a bare text before.
 */
export function fileNotFound() {
  const page = errorPage(404);
  return new Response(page.body, { status: page.status, headers: page.headers });
}

export async function fileResponse(
  path: string,
  headers: { contentType: string; disposition?: string; cacheControl: string },
  request: Request,
) {
  let size: number;
  let mtime: Date;
  try {
    ({ size, mtime } = await stat(path));
  } catch {
    throw fileNotFound();
  }
  const etag = `W/"${size.toString(36)}-${mtime.getTime().toString(36)}"`;
  const common: Record<string, string> = { "Cache-Control": headers.cacheControl, ETag: etag };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers: common });
  return new Response(createReadableStreamFromReadable(createReadStream(path)), {
    headers: {
      ...common,
      "Content-Type": headers.contentType,
      "Content-Length": String(size),
      ...(headers.disposition ? { "Content-Disposition": headers.disposition } : {}),
    },
  });
}
