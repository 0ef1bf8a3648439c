// Every form body of the app is read here, with its limits checked before any schema sees it:
// bytes, number of fields, length and depth of field names, and array indices. A hostile body
// (one name repeated 64,000 times, `boxes[100000].x=…`, 25 MB of anything, conform's own intent
// field) is refused with a small German answer in milliseconds; conform's parse, which is
// quadratic in repeated names and linear in the highest index, only ever sees forms of a sane
// shape.
// Why not request.formData(): it has no limits at all (docs/decisions/0007-form-limits.md).
import { Readable } from "node:stream";
import busboy from "busboy";
import { settings } from "./env.server";
import { withoutUnseen } from "~/lib/unseen";
import { isoDateFromTyped, isoTimeFromTyped } from "~/lib/dates";

/** Fields of the largest real form (the enrolment with ten boxes) stay far below this. */
export const MAX_FIELDS = 1000;
/**
 * The participant and helper lists' forms have a field per row (the group selects without
 * JavaScript, the bulk acceptance): an event without a capacity can list more than 1,000 people.
 */
export const LIST_MAX_FIELDS = 5000;
/** `boxes[9]` is the highest index of a real form; conform makes an array slot up to any index. */
export const MAX_INDEX = 50;
const MAX_NAME_LENGTH = 200;
const MAX_NAME_DEPTH = 6;
/** The largest form of the app: the event form with a picture and attachments. */
export { MULTIPART_MAX_BYTES } from "~/lib/upload-limits";
import { MULTIPART_MAX_BYTES } from "~/lib/upload-limits";
/** A text field of a multipart form; the longest real text field has 1,500 characters. */
const MAX_MULTIPART_FIELD_BYTES = 64 * 1024;

export const FORM_UNREADABLE = "Das Formular konnte nicht gelesen werden. Bitte versuchen Sie es erneut.";
export const FORM_TOO_LARGE = "Das Formular ist zu groß. Bitte kürzen Sie Ihre Eingaben und versuchen Sie es erneut.";
export const FORM_TOO_MANY_FIELDS = "Das Formular enthält zu viele Felder.";
export const FORM_TOO_MANY_FILES = "Das Formular enthält zu viele Dateien.";
export const FORM_FIELD_TOO_LONG = "Ein Feld des Formulars ist zu lang. Bitte kürzen Sie Ihre Eingaben und versuchen Sie es erneut.";

/**
 * The most any route takes in one body of this type; the server refuses a larger declared
 * Content-Length before the body is read (server.mjs), routes may allow less.
 */
export function maxBodyBytes(contentType: string | null | undefined) {
  return /^\s*multipart\/form-data/i.test(contentType ?? "") ? MULTIPART_MAX_BYTES : settings().formMaxBytes;
}

/** A refusal: thrown as a Response, so the route's error page shows the German message. */
export function refusal(status: number, message: string) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export type FileHandler = (part: { name: string; filename: string; stream: Readable }) => Promise<string | undefined>;

export type FormOptions = {
  /** The whole body; default the FORM_MAX_KB setting (1 MB). */
  maxBytes?: number;
  maxFields?: number;
  maxIndex?: number;
  /** Multipart file parts; without it every file part is read past and dropped. */
  onFile?: FileHandler;
  maxFiles?: number;
};

/**
 * Names conform reserves for its own intents and state: it parses them as JSON and applies an
 * intent's value at any path and index after every check here (an "update" at index 10^8 ran the
 * server out of memory). No form of the app sends them; its buttons name their own `intent`.
 */
const CONFORM_RESERVED = new Set(["__intent__", "__state__"]);

/** Throws the refusal when a field name is longer, deeper or indexed higher than any real form, or conform's own. */
function checkName(name: string | undefined, maxIndex: number) {
  // A multipart part without a name (busboy gives none) names no field of any form.
  if (!name || name.length > MAX_NAME_LENGTH || CONFORM_RESERVED.has(name)) throw refusal(400, FORM_UNREADABLE);
  let depth = 0;
  for (const match of name.matchAll(/\[(\d*)\]|\./g)) {
    depth++;
    if (match[1] !== undefined && (match[1].length > 4 || Number(match[1]) > maxIndex)) throw refusal(400, FORM_UNREADABLE);
  }
  if (depth > MAX_NAME_DEPTH) throw refusal(400, FORM_UNREADABLE);
}

// eslint-disable-next-line no-control-regex
const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * A field's value as a person could have typed it: control characters and direction overrides
 * (a name that reads backwards in every list, a NUL in a mail's greeting) are dropped here, for
 * every form at once; lines and tabs stay. Each line break becomes one LF: a browser sends a text
 * area's breaks as CR LF, while its maxlength counted one character, so a text at the limit was
 * refused as too long. A letter with a combining mark becomes the one character it looks like
 * (NFC; plain ASCII is so already). A password is compared, never shown: kept as sent.
 */
function typed(name: string, value: string) {
  if (/password/i.test(name)) return value;
  const unseen = withoutUnseen(value).replace(/\r\n?/g, "\n");
  const clean = NOT_ASCII.test(unseen) ? unseen.normalize("NFC") : unseen;
  if (DATE_FIELD.test(name)) return isoDateFromTyped(clean);
  return TIME_FIELD.test(name) ? isoTimeFromTyped(clean) : clean;
}

/**
 * The app's date fields (`type="date"`), by the last part of their name: a browser without a date
 * picker sends them as typed ("1.5.2015"), read here as ISO for every form at once. A test keeps
 * this list and the forms' date fields the same.
 */
export const DATE_FIELD_NAMES = ["birthDate", "birthdateOfInsured", "dateFrom", "dateTo", "registrationDeadline", "policeCertificateCheckedOn", "juleicaExpiresOn"];
const DATE_FIELD = new RegExp(`(?:^|\\.)(?:${DATE_FIELD_NAMES.join("|")})$`);
/** The same for the time fields (`type="time"`, "10.00" read as "10:00"). */
export const TIME_FIELD_NAMES = ["timeFrom", "timeTo"];
const TIME_FIELD = new RegExp(`(?:^|\\.)(?:${TIME_FIELD_NAMES.join("|")})$`);

function decode(part: string) {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    throw refusal(400, FORM_UNREADABLE); // broken percent-encoding or not UTF-8
  }
}

/** application/x-www-form-urlencoded, as browsers send it. */
export function parseUrlEncoded(text: string, maxFields = MAX_FIELDS, maxIndex = MAX_INDEX) {
  const pairs = text.split("&").filter((pair) => pair !== "");
  if (pairs.length > maxFields) throw refusal(413, FORM_TOO_MANY_FIELDS);
  const formData = new FormData();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const name = decode(at === -1 ? pair : pair.slice(0, at));
    checkName(name, maxIndex);
    formData.append(name, at === -1 ? "" : typed(name, decode(pair.slice(at + 1))));
  }
  return formData;
}

function declaredLength(request: Request) {
  const header = request.headers.get("Content-Length");
  if (header === null) return null;
  if (!/^\d{1,15}$/.test(header.trim())) throw refusal(400, FORM_UNREADABLE);
  return Number(header);
}

/** The body's bytes, up to `maxBytes`; more is refused without reading further. */
async function readBody(request: Request, maxBytes: number) {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      throw refusal(400, FORM_UNREADABLE); // the sender broke off
    }
    if (step.done) break;
    size += step.value.byteLength;
    if (size > maxBytes) {
      // Not cancelled: that would cut the connection before the refusal is sent. The server
      // drops the rest while it answers, then closes (sendRemixResponse).
      reader.releaseLock();
      throw refusal(413, FORM_TOO_LARGE);
    }
    chunks.push(step.value);
  }
  return Buffer.concat(chunks);
}

/** A web stream as a Node stream that refuses to go past `maxBytes`. */
function limitedNodeStream(body: ReadableStream<Uint8Array>, maxBytes: number) {
  const reader = body.getReader();
  let size = 0;
  return new Readable({
    async read() {
      try {
        const step = await reader.read();
        if (step.done) return void this.push(null);
        size += step.value.byteLength;
        if (size > maxBytes) {
          reader.releaseLock(); // not cancelled: see readBody
          return void this.destroy(Object.assign(new Error("too large"), { status: 413 }));
        }
        this.push(step.value);
      } catch (error) {
        this.destroy(error as Error);
      }
    },
  });
}

type MultipartLimits = Required<Omit<FormOptions, "onFile">> & Pick<FormOptions, "onFile">;

/**
 * multipart/form-data with busboy. After a refusal the rest of the body is still parsed (cheaply,
 * dropping everything) so that the answer can be sent on the same connection; files being
 * written by `onFile` end first, so that its caller can remove them.
 */
function parseMultipart(request: Request, contentType: string, limits: MultipartLimits) {
  return new Promise<FormData>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        defParamCharset: "utf8", // browsers send file names as UTF-8
        limits: {
          fieldNameSize: MAX_NAME_LENGTH,
          fieldSize: MAX_MULTIPART_FIELD_BYTES,
          fields: limits.maxFields,
          files: limits.maxFiles,
          parts: limits.maxFields + limits.maxFiles,
        },
      });
    } catch {
      return reject(refusal(400, FORM_UNREADABLE)); // no or a broken boundary
    }
    const formData = new FormData();
    const pending: Promise<void>[] = [];
    let refused: Response | null = null;
    const fail = (response: Response) => {
      refused ??= response;
    };
    const accepts = (name: string | undefined): name is string => {
      try {
        checkName(name, limits.maxIndex);
        return true;
      } catch (response) {
        fail(response as Response);
        return false;
      }
    };
    parser.on("field", (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail(refusal(413, FORM_FIELD_TOO_LONG));
      if (!refused && accepts(name)) formData.append(name, typed(name, value));
    });
    parser.on("file", (name, stream, info) => {
      stream.on("error", () => undefined); // a body that breaks off ends the file with an error; the parser reports it
      if (refused || !accepts(name) || !limits.onFile || !info.filename) return void stream.resume();
      const handled = limits.onFile({ name, filename: info.filename, stream }).then(
        (value) => {
          if (value !== undefined) formData.append(name, value);
        },
        (error: unknown) => {
          stream.resume();
          fail(error instanceof Response ? error : refusal(400, FORM_UNREADABLE));
        },
      );
      pending.push(handled);
    });
    const tooMany = () => fail(refusal(413, FORM_TOO_MANY_FIELDS));
    parser.on("fieldsLimit", tooMany);
    parser.on("filesLimit", () => fail(refusal(413, FORM_TOO_MANY_FILES)));
    parser.on("partsLimit", tooMany);
    parser.on("error", () => {
      // Truncated or malformed (a part header over busboy's 16 KB, say). pipe() unpipes on a
      // destination error, so end the parser (it closes) and read the rest of the body away.
      fail(refusal(400, FORM_UNREADABLE));
      if (!parser.destroyed) parser.destroy();
      source.resume();
    });
    parser.on("close", () => {
      void Promise.allSettled(pending).then(() => (refused ? reject(refused) : resolve(formData)));
    });
    const source = limitedNodeStream(request.body!, limits.maxBytes);
    source.on("error", (error: Error & { status?: number }) => {
      fail(error.status === 413 ? refusal(413, FORM_TOO_LARGE) : refusal(400, FORM_UNREADABLE));
      parser.destroy(); // ends a file stream being written, then 'close'
    });
    source.pipe(parser);
  });
}

/**
 * Reads the form of a request, urlencoded or multipart, within the limits; throws a German 4xx
 * Response otherwise (malformed, too large, too many fields, an absurd field name, a JSON or
 * text body). The only place of the app that reads a request body.
 */
export async function readForm(request: Request, options: FormOptions = {}): Promise<FormData> {
  const limits = {
    maxBytes: options.maxBytes ?? settings().formMaxBytes,
    maxFields: options.maxFields ?? MAX_FIELDS,
    maxIndex: options.maxIndex ?? MAX_INDEX,
    maxFiles: options.maxFiles ?? 0,
    onFile: options.onFile,
  };
  const length = declaredLength(request);
  if (length !== null && length > limits.maxBytes) throw refusal(413, FORM_TOO_LARGE);
  const contentType = request.headers.get("Content-Type") ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (mediaType === "application/x-www-form-urlencoded") {
    const bytes = await readBody(request, limits.maxBytes);
    return parseUrlEncoded(bytes.toString("utf8"), limits.maxFields, limits.maxIndex);
  }
  if (mediaType === "multipart/form-data" && request.body) {
    // Without a file handler, file parts are read past and dropped (they count as parts).
    return parseMultipart(request, contentType, { ...limits, maxFiles: options.onFile ? limits.maxFiles : MAX_FIELDS });
  }
  if (!request.body || length === 0) return new FormData();
  throw refusal(415, FORM_UNREADABLE);
}
