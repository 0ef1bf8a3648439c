// One version of a legal document, also an earlier one: for admins, and for the staff of an
// event whose enrolments accepted it (proof of consent).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findLegalVersionFile, LEGAL_DOCUMENTS } from "~/models/legal.server";
import { contentDisposition, fileNotFound, fileResponse, PERSONAL_FILE_CACHE_CONTROL } from "~/services/file-response.server";
import { requireUser } from "~/services/session.server";
import { storedPath } from "~/services/uploads.server";
import { idFrom } from "~/lib/ids";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const versionId = idFrom(params.versionId);
  const file = versionId ? findLegalVersionFile(versionId, user) : null;
  if (!file) throw fileNotFound();
  return fileResponse(
    storedPath("legal", file.key),
    {
      contentType: "application/pdf",
      disposition: contentDisposition("inline", `${LEGAL_DOCUMENTS[file.type].label} (Version ${file.version}).pdf`),
      cacheControl: PERSONAL_FILE_CACHE_CONTROL,
    },
    request,
  );
}
