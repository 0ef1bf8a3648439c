// Uploaded files: streamed to disk while the form is read (never held in memory whole), their
// type recognised from the content (file-type), stored under UPLOADS_DIR with generated names.
// Preview pictures are turned once into small WebP versions (sharp) so phones never load the
// camera original.
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DISK_LOW, roomForFiles } from "./disk-space.server";
import { settings } from "./env.server";
import { errorCode, probeFolder } from "./folders.server";
import { MAX_PICTURE_PIXELS, writePictureVariants } from "./picture-variants.server";
import { FORM_TOO_LARGE, FORM_TOO_MANY_FILES, FORM_UNREADABLE, MULTIPART_MAX_BYTES, readForm, type FileHandler } from "./form.server";
import { nameWithExtension, uploadedFileName } from "~/lib/file-names";
import { randomToken } from "./tokens.server";
import { checkTypes, SAVE_FAILED, UploadError, type CheckedUpload, type TempUpload, type UploadKind } from "./upload-types.server";

export const MB = 1024 * 1024;
export const PICTURE_MAX_BYTES = 5 * MB;
export const ATTACHMENT_MAX_BYTES = 10 * MB;
/** A whole form: a picture and a handful of attachments. */
export const FORM_MAX_BYTES = MULTIPART_MAX_BYTES;
export const PICTURE_WIDTHS = [480, 960] as const;

export { SAVE_FAILED, UploadError, type CheckedUpload, type TempUpload, type UploadKind } from "./upload-types.server";

export type StoredFile = { key: string; displayName: string; mimeType: string; size: number };

const LIMITS: Record<UploadKind, number> = {
  picture: PICTURE_MAX_BYTES,
  attachment: ATTACHMENT_MAX_BYTES,
  legal: ATTACHMENT_MAX_BYTES,
};

const TOO_LARGE: Record<UploadKind, string> = {
  picture: "Das Bild ist zu groß. Erlaubt sind höchstens 5 MB.",
  attachment: "Der Anhang ist zu groß. Erlaubt sind höchstens 10 MB je Datei.",
  legal: "Die Datei ist zu groß. Erlaubt sind höchstens 10 MB.",
};

function dir(...parts: string[]) {
  return path.join(settings().uploadsDir, ...parts);
}

/** A refusal of the server's own (a full disk, a folder it cannot write) for the form's summary: not the person's input. */
export function serverRefusal(problems: UploadError[]) {
  const problem = problems.find((p) => p.status >= 500);
  return problem ? { title: "Dateien nicht gespeichert", message: problem.message } : null;
}

/** Until the disk took what was written (or the file closed); no listener stays behind. */
function drained(out: WriteStream) {
  return new Promise<void>((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.once("drain", done);
    out.once("close", done);
  });
}

/** Writes a file part to `tempPath`; a write error (full disk, no permission) never escapes. */
async function writeTemp(stream: Readable, tempPath: string, limit: number, budget: { left: number }) {
  let size = 0;
  let overLimit = false;
  let failed = false;
  const out = createWriteStream(tempPath, { flags: "wx" });
  out.on("error", () => {
    failed = true;
  });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.left -= chunk.length;
      if (size > limit || budget.left < 0) overLimit = true;
      if (overLimit || failed) continue; // read to the end, so the other fields still arrive
      if (!out.write(chunk)) await drained(out);
    }
  } catch {
    failed = true; // the body broke off; the form reader answers for the whole request
  }
  await new Promise<void>((resolve) => {
    if (out.closed) return resolve();
    out.once("close", () => resolve());
    out.end();
  });
  return { size, overLimit, failed };
}

/** Files one upload form takes at once (event pictures and attachments, mail attachments, PDFs). */
const MAX_FILES_AT_ONCE = 20;
const TOO_MANY_FILES = `Zu viele Dateien auf einmal: höchstens ${MAX_FILES_AT_ONCE}.`;
/**
 * Files read past (not written) after the first 20, so that the form's other fields still come
 * back with the message next to the file field: a person chose too many. More than this is no
 * browser's form, and the whole body is refused.
 */
const MAX_FILES_READ = 100;

/**
 * Reads a multipart form through the one form reader. File fields (`fileFields`: field name →
 * kind) stream to temporary files; a file over its limit, or one the disk would not take, is
 * read to the end and thrown away, and reported as an UploadError after the whole form is read,
 * so the other fields can be shown again. A field of `oneFile` (field → its message) that
 * brought several files keeps none of them and says its message.
 */
export async function readUploadForm(
  request: Request,
  fileFields: Record<string, UploadKind>,
  { maxBytes = FORM_MAX_BYTES, oneFile = {} }: { maxBytes?: number; oneFile?: Record<string, string> } = {},
) {
  const tempDir = dir(".tmp");
  const tempDirReady = mkdir(tempDir, { recursive: true }).then(
    () => true,
    () => false,
  );
  // Files are written side by side; each keeps the place it had in the form.
  const slots: TempUpload[] = [];
  let arrivals = 0;
  const problems: UploadError[] = [];
  const budget = { left: maxBytes };
  const room = roomForFiles();

  const filesIn = new Map<string, number>();

  const onFile: FileHandler = async ({ name, filename, stream }) => {
    const kind = fileFields[name];
    if (!kind) return void stream.resume();
    filesIn.set(name, (filesIn.get(name) ?? 0) + 1);
    if (arrivals >= MAX_FILES_AT_ONCE) {
      stream.resume();
      if (!problems.some((p) => p.message === TOO_MANY_FILES)) problems.push(new UploadError(name, TOO_MANY_FILES, 413));
      return undefined;
    }
    const slot = arrivals++;
    const tempPath = path.join(tempDir, randomToken());
    // No folder to write to, or too little room left on the disk: the file is not read.
    let refused: UploadError | null = null;
    if (!(await tempDirReady)) refused = new UploadError(name, SAVE_FAILED, 503);
    else if (!room(LIMITS[kind], maxBytes - budget.left)) refused = new UploadError(name, DISK_LOW, 507);
    if (refused) {
      stream.resume();
      problems.push(refused);
      return undefined;
    }
    const written = await writeTemp(stream, tempPath, LIMITS[kind], budget);
    if (written.overLimit || written.failed) {
      await rm(tempPath, { force: true }).catch(() => undefined);
      if (written.overLimit) problems.push(new UploadError(name, TOO_LARGE[kind], 413));
      else problems.push(new UploadError(name, SAVE_FAILED, 503));
      return undefined;
    }
    slots[slot] = { field: name, kind, tempPath, originalName: uploadedFileName(filename), size: written.size };
    return `upload:${slot}`;
  };

  // Only a multipart body may carry files, and only it may be larger than a plain form.
  const multipart = /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
  try {
    const formData = await readForm(request, multipart ? { maxBytes, onFile, maxFiles: MAX_FILES_READ } : {});
    for (const [field, message] of Object.entries(oneFile)) {
      if ((filesIn.get(field) ?? 0) < 2) continue;
      // Which one was meant? None is kept, and the field says why (its other messages go).
      await discardUploads(slots.filter((slot) => slot?.field === field));
      for (const [i, slot] of slots.entries()) if (slot?.field === field) delete slots[i];
      problems.splice(0, problems.length, ...problems.filter((problem) => problem.field !== field), new UploadError(field, message));
    }
    const { checked: uploads, refused } = await checkTypes(slots.filter(Boolean), problems);
    await discardUploads(refused);
    return { formData, uploads, problems };
  } catch (error) {
    await discardUploads(slots.filter(Boolean));
    if (error instanceof Response && error.status === 413 && multipart) {
      // Each limit named for what it is: too many files, all files together too large, or a
      // field or the number of fields (the form reader's own words).
      const said = await error.text();
      if (said === FORM_TOO_MANY_FILES) throw new UploadError("", TOO_MANY_FILES, 413);
      if (said === FORM_TOO_LARGE) throw new UploadError("", `Die Dateien sind zusammen zu groß. Erlaubt sind höchstens ${Math.round(maxBytes / MB)} MB auf einmal.`, 413, true);
      throw new UploadError("", said, 413);
    }
    if (error instanceof Response) throw new UploadError("", FORM_UNREADABLE, error.status);
    throw error;
  }
}

export async function discardUploads(uploads: TempUpload[]) {
  await Promise.all(uploads.map((u) => rm(u.tempPath, { force: true })));
}

export function folderFor(kind: UploadKind) {
  return kind === "picture" ? "pictures" : kind === "legal" ? "legal" : "attachments";
}

/** Moves an upload of a checked type to its place; pictures also get their small WebP versions. */
async function storeUpload(upload: CheckedUpload): Promise<StoredFile> {
  const { mimeType, extension } = upload;
  const key = `${randomToken().slice(0, 24)}.${extension}`;
  const target = dir(folderFor(upload.kind), key);
  if (upload.kind === "picture") {
    const problem = await mkdir(path.dirname(target), { recursive: true }).then(
      () => writePictureVariants(upload.tempPath, PICTURE_WIDTHS, (width) => variantPath(key, width)),
      () => "not-written" as const,
    );
    if (problem) {
      await removeStoredFile("picture", key).catch(() => undefined);
      if (problem === "too-many-pixels") {
        throw new UploadError(upload.field, `Das Bild hat zu viele Pixel. Erlaubt sind höchstens ${MAX_PICTURE_PIXELS / 1_000_000} Megapixel.`);
      }
      if (problem === "unreadable") throw new UploadError(upload.field, "Das Bild konnte nicht gelesen werden. Bitte versuchen Sie ein anderes.");
      throw new UploadError(upload.field, SAVE_FAILED, 503);
    }
  }
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await rename(upload.tempPath, target);
    const { size } = await stat(target);
    return { key, displayName: nameWithExtension(upload.originalName, extension), mimeType, size };
  } catch {
    await removeStoredFile(upload.kind, key).catch(() => undefined);
    throw new UploadError(upload.field, SAVE_FAILED, 503);
  }
}

/** Stores several uploads; if one fails, those already stored are removed again. */
export async function storeUploads(uploads: CheckedUpload[]) {
  const stored: (StoredFile & { field: string; kind: UploadKind })[] = [];
  try {
    for (const upload of uploads) stored.push({ ...(await storeUpload(upload)), field: upload.field, kind: upload.kind });
    return stored;
  } catch (error) {
    await Promise.all(stored.map((s) => removeStoredFile(s.kind, s.key)));
    await discardUploads(uploads);
    throw error;
  }
}

export function variantPath(key: string, width: number) {
  return dir("pictures", `${key}-${width}.webp`);
}

export function storedPath(kind: UploadKind, key: string) {
  return dir(folderFor(kind), key);
}

/** Removes a stored file (and a picture's WebP versions); missing files are fine. */
export async function removeStoredFile(kind: UploadKind, key: string) {
  await rm(storedPath(kind, key), { force: true });
  if (kind === "picture") await Promise.all(PICTURE_WIDTHS.map((w) => rm(variantPath(key, w), { force: true })));
}

/**
 * At start: the upload folders exist and are writable, and no temporary file of an upload that
 * was cut off (crash, shutdown) is left. Throws a message naming the folder otherwise.
 */
export async function cleanTempUploads() {
  const tempDir = dir(".tmp");
  try {
    await mkdir(tempDir, { recursive: true });
    for (const name of await readdir(tempDir)) await rm(path.join(tempDir, name), { force: true, recursive: true });
    for (const kind of ["picture", "attachment", "legal"] as const) await mkdir(dir(folderFor(kind)), { recursive: true });
    probeFolder(tempDir);
  } catch (error) {
    throw new Error(
      `Der Upload-Ordner ${settings().uploadsDir} ist nicht beschreibbar (${errorCode(error)}). ` +
        "Bitte UPLOADS_DIR prüfen oder dem Benutzer des Servers Schreibrechte geben.",
    );
  }
}
