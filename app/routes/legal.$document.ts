// The current version of a legal document at its stable address: /legal/datenschutz.pdf,
// /legal/teilnahmebedingungen.pdf, /legal/agb.pdf. Public: parents read them before enrolling.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findCurrentLegalFile, LEGAL_DOCUMENTS, legalTypeOfSlug } from "~/models/legal.server";
import { contentDisposition, fileResponse, fileNotFound } from "~/services/file-response.server";
import { storedPath } from "~/services/uploads.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const type = legalTypeOfSlug(params.document ?? "");
  const file = type ? findCurrentLegalFile(type) : null;
  if (!type || !file) throw fileNotFound();
  return fileResponse(
    storedPath("legal", file.key),
    {
      contentType: "application/pdf",
      disposition: contentDisposition("inline", `${LEGAL_DOCUMENTS[type].label}.pdf`),
      // The address stays when a new version is uploaded: ask again each time (the ETag keeps it cheap).
      cacheControl: "public, no-cache",
    },
    request,
  );
}
