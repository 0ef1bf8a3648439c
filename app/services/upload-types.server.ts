// What an uploaded file is, recognised from its content (file-type; never from its name or the
// browser's word): pictures, PDF, and plain UTF-8 text; and the check of a form's files by it.
import { open } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";

export type UploadKind = "picture" | "attachment" | "legal";

export type TempUpload = {
  field: string;
  kind: UploadKind;
  tempPath: string;
  originalName: string;
  size: number;
};

/** An upload whose type was recognised from its content as one its field takes. */
export type CheckedUpload = TempUpload & { mimeType: string; extension: string };

export const SAVE_FAILED = "Die Datei konnte nicht gespeichert werden. Bitte versuchen Sie es später erneut.";

export class UploadError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly status = 400,
    /** The files of the form together are over its limit (a form may say this in its own words). */
    readonly together = false,
  ) {
    super(message);
  }
}

const WRONG_TYPE: Record<UploadKind, string> = {
  picture: "Als Foto sind nur Bilder im Format JPEG, PNG, WebP oder GIF erlaubt.",
  attachment: "Als Anhang sind nur Bilder, Textdateien und PDF erlaubt.",
  // Only the admin panel takes legal documents; it speaks 'du' (legal-form.server).
  legal: "Bitte lade eine PDF-Datei hoch.",
};

const PICTURE_TYPES = new Map([
  ["image/jpeg", "jpg"],
  ["image/png", "png"],
  ["image/webp", "webp"],
  ["image/gif", "gif"],
]);
const PDF = new Map([["application/pdf", "pdf"]]);

/** Is this a plain UTF-8 text file (no binary bytes)? */
async function isPlainText(file: string) {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const sample = buffer.subarray(0, bytesRead);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(sample.toString("latin1"))) return false;
    try {
      // A cut at the end of the sample may split a character; only the full file must be valid.
      new TextDecoder("utf-8", { fatal: true }).decode(bytesRead < buffer.length ? sample : sample.subarray(0, bytesRead - 4));
      return true;
    } catch {
      return false;
    }
  } finally {
    await handle.close();
  }
}

/** The stored type of an upload, recognised from its content; an UploadError when not allowed. */
export async function detectType(upload: TempUpload): Promise<{ mimeType: string; extension: string }> {
  const detected = await fileTypeFromFile(upload.tempPath);
  if (upload.kind === "picture" || upload.kind === "legal") {
    const allowed = upload.kind === "picture" ? PICTURE_TYPES : PDF;
    const extension = detected ? allowed.get(detected.mime) : undefined;
    if (!detected || !extension) throw new UploadError(upload.field, WRONG_TYPE[upload.kind]);
    return { mimeType: detected.mime, extension };
  }
  if (detected) {
    const extension = PICTURE_TYPES.get(detected.mime) ?? PDF.get(detected.mime);
    if (!extension) throw new UploadError(upload.field, WRONG_TYPE.attachment);
    return { mimeType: detected.mime, extension };
  }
  if (await isPlainText(upload.tempPath)) return { mimeType: "text/plain; charset=utf-8", extension: "txt" };
  throw new UploadError(upload.field, WRONG_TYPE.attachment);
}

const emptyFiles = (names: string[]) => (names.length === 1 ? `Die Datei ${names[0]} ist leer.` : `Diese Dateien sind leer: ${names.join(", ")}.`);

/**
 * Every file's type, checked as the form is read: an empty file (a broken download) or one of the
 * wrong type is said in the same answer as the other fields' messages (not once they are right),
 * each field once, naming the files when the field took several. Hands back the uploads that are
 * fine and those refused (for the caller to remove).
 */
export async function checkTypes(uploads: TempUpload[], problems: UploadError[]) {
  type Verdict = { upload: TempUpload; checked?: CheckedUpload; error?: UploadError; empty?: true };
  const verdicts = await Promise.all(
    uploads.map((upload) =>
      upload.size === 0
        ? ({ upload, empty: true } as Verdict)
        : detectType(upload).then(
            (type): Verdict => ({ upload, checked: { ...upload, ...type } }),
            (error): Verdict => ({ upload, error: error instanceof UploadError ? error : new UploadError(upload.field, SAVE_FAILED, 503) }),
          ),
    ),
  );
  const refused = verdicts.filter((v) => !v.checked);
  for (const field of new Set(refused.map((v) => v.upload.field))) {
    const mine = refused.filter((v) => v.upload.field === field);
    const said: string[] = [];
    const empty = mine.filter((v) => v.empty).map((v) => v.upload.originalName);
    if (empty.length) said.push(emptyFiles(empty));
    const wrong = mine.filter((v) => v.error);
    const first = wrong[0]?.error;
    if (first) {
      const several = uploads.filter((upload) => upload.field === field).length > 1;
      said.push(several && first.status < 500 ? `${first.message} Nicht erlaubt: ${wrong.map((v) => v.upload.originalName).join(", ")}.` : first.message);
    }
    problems.push(new UploadError(field, said.join(" "), first?.status ?? 400));
  }
  return { checked: verdicts.flatMap((v) => (v.checked ? [v.checked] : [])), refused: refused.map((v) => v.upload) };
}
