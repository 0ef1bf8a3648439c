// A preview picture in one of its small WebP sizes (the original is never sent).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findEventFile } from "~/models/event.server";
import { fileNotFound, fileResponse, PERSONAL_FILE_CACHE_CONTROL, SHARED_FILE_CACHE_CONTROL } from "~/services/file-response.server";
import { getUser } from "~/services/session.server";
import { PICTURE_WIDTHS, variantPath } from "~/services/uploads.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const match = /^([\w-]+\.(?:jpg|png|webp|gif))-(\d+)\.webp$/.exec(params.key ?? "");
  const width = Number(match?.[2]);
  if (!match || !(PICTURE_WIDTHS as readonly number[]).includes(width)) throw fileNotFound();
  const file = findEventFile(match[1], "preview", await getUser(request));
  if (!file) throw fileNotFound();
  // Keys are never reused: a new picture gets a new key, so a browser can keep a picture for good.
  return fileResponse(
    variantPath(match[1], width),
    { contentType: "image/webp", cacheControl: file.staffOnly ? PERSONAL_FILE_CACHE_CONTROL : SHARED_FILE_CACHE_CONTROL.picture },
    request,
  );
}
