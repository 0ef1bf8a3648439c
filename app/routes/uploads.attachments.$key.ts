// An event's attachment, opened in a new tab. Attachments of a staff-only event only for staff.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findEventFile } from "~/models/event.server";
import { contentDisposition, fileNotFound, fileResponse, PERSONAL_FILE_CACHE_CONTROL, SHARED_FILE_CACHE_CONTROL } from "~/services/file-response.server";
import { getUser } from "~/services/session.server";
import { storedPath } from "~/services/uploads.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const key = params.key ?? "";
  if (!/^[\w-]+\.(jpg|png|webp|gif|pdf|txt)$/.test(key)) throw fileNotFound();
  const file = findEventFile(key, "attachment", await getUser(request));
  if (!file) throw fileNotFound();
  return fileResponse(
    storedPath("attachment", key),
    {
      contentType: file.mimeType,
      disposition: contentDisposition("inline", file.displayName),
      cacheControl: file.staffOnly ? PERSONAL_FILE_CACHE_CONTROL : SHARED_FILE_CACHE_CONTROL.attachment,
    },
    request,
  );
}
