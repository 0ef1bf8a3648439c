// Reading the admin panel's document form: up to three PDFs, recognised from their content
// (never from the name), stored all or none.
import type { LegalDocumentType } from "../../db/schema";
import { submissionKeyOf } from "~/models/form-submission.server";
import { LEGAL_DOCUMENTS, LEGAL_TYPES } from "~/models/legal.server";
import { DISK_LOW } from "./disk-space.server";
import { FORM_FIELD_TOO_LONG, FORM_UNREADABLE } from "./form.server";
import { ATTACHMENT_MAX_BYTES, discardUploads, readUploadForm, SAVE_FAILED, storeUploads, UploadError, type StoredFile } from "./uploads.server";

export const UPLOAD_FAILED = "Upload fehlgeschlagen";
export const NO_FILE = "Bitte wähle mindestens eine PDF-Datei aus.";
const ONE_FILE = "Bitte wähle je Dokument nur eine Datei aus.";

/**
 * The admin panel speaks 'du' (its user administration: "Du kannst dich nicht selbst
 * deaktivieren."; DECISIONS.md, form of address: one form per screen). The upload's refusals it
 * shares with the event form, which speaks 'Sie', are said here in its words.
 */
const PANEL_WORDS = new Map([
  [SAVE_FAILED, "Die Datei konnte nicht gespeichert werden. Bitte versuche es später erneut."],
  [DISK_LOW, "Auf dem Server ist kaum noch Speicherplatz frei, deshalb wurde die Datei nicht gespeichert. Bitte wende dich an die Person, die den Server betreut."],
  [FORM_UNREADABLE, "Das Formular konnte nicht gelesen werden. Bitte versuche es erneut."],
  [FORM_FIELD_TOO_LONG, "Ein Feld des Formulars ist zu lang. Bitte kürze deine Eingaben und versuche es erneut."],
]);

export function inPanelWords(message: string) {
  return PANEL_WORDS.get(message) ?? message;
}

const inPanelWordsAll = (messages: Record<string, string>) => Object.fromEntries(Object.entries(messages).map(([field, message]) => [field, inPanelWords(message)]));

export type LegalFormResult =
  | { ok: true; uploads: { type: LegalDocumentType; file: StoredFile }[]; submissionKey: string | null }
  | { ok: false; status: number; messages: Record<string, string> };

const typeOfField = new Map(LEGAL_TYPES.map((type) => [LEGAL_DOCUMENTS[type].field, type]));

export async function readLegalForm(request: Request): Promise<LegalFormResult> {
  let read;
  try {
    const fields = Object.fromEntries(LEGAL_TYPES.map((type) => [LEGAL_DOCUMENTS[type].field, "legal" as const]));
    const oneFile = Object.fromEntries(Object.keys(fields).map((field) => [field, ONE_FILE]));
    read = await readUploadForm(request, fields, { maxBytes: LEGAL_TYPES.length * ATTACHMENT_MAX_BYTES + 64 * 1024, oneFile });
  } catch (error) {
    if (error instanceof UploadError) return { ok: false, status: error.status, messages: { "": inPanelWords(error.message) } };
    throw error;
  }
  const { uploads, problems } = read;
  const fail = async (status: number, messages: Record<string, string>) => {
    await discardUploads(uploads);
    return { ok: false as const, status, messages: inPanelWordsAll(messages) };
  };
  if (problems.length) {
    const status = problems.find((p) => p.status >= 500)?.status ?? (problems.some((p) => p.status === 413) ? 413 : 400);
    return fail(status, Object.fromEntries(problems.map((p) => [p.field, p.message])));
  }
  if (uploads.length === 0) return fail(400, { "": NO_FILE });
  try {
    const stored = await storeUploads(uploads);
    const uploaded = stored.map((file) => ({ type: typeOfField.get(file.field)!, file }));
    return { ok: true, uploads: uploaded, submissionKey: submissionKeyOf(read.formData) };
  } catch (error) {
    if (error instanceof UploadError) return { ok: false, status: error.status, messages: { [error.field]: inPanelWords(error.message) } };
    throw error;
  }
}
