// Reading the create/edit form of an event: fields, uploads and file changes, checked.
import { parseWithZod } from "~/services/parse-form.server";
import { redirect } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { json } from "~/services/json.server";
import type { EventFormRefusal, EventInput, FileChanges } from "~/models/event.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import { eventSchema, INVALID_FORM } from "~/schemas/event";
import { discardUploads, readUploadForm, serverRefusal, storeUploads, UploadError } from "./uploads.server";
import { logError } from "./log.server";
import { berlinToInstant, isIsoDate, isTime } from "~/lib/dates";

/** The picture field takes one file; only a hand-made request sends more. */
const ONE_PICTURE = "Bitte wählen Sie nur ein Foto aus.";
const GENERIC_FAILURE = { title: "Fehler", message: "Ein Fehler ist aufgetreten. Bitte versuchen Sie es später erneut." };

function toInput(value: ReturnType<typeof eventSchema.parse>, formData: FormData): EventInput {
  const { noRegistration, price, capacity, siblingDiscountAmount, ...rest } = value;
  // Lead persons change only when the form offered the choice (an admin's form says so).
  const ownersChosen = formData.get("ownersShown") === "1";
  return {
    ...rest,
    ownersChosen,
    requiresApplication: !noRegistration,
    priceCents: price,
    siblingDiscountCents: siblingDiscountAmount,
    capacity: capacity ?? null,
  };
}

function fileChanges(formData: FormData): FileChanges {
  const renamed: FileChanges["renamed"] = [];
  for (const [name, value] of formData) {
    const match = /^attachmentName-(\d+)$/.exec(name);
    // Cleaned and cut to 150 characters where it is stored (displayFileName), whole characters only.
    if (match && typeof value === "string" && value.trim()) renamed.push({ id: Number(match[1]), displayName: value });
  }
  return {
    renamed,
    removedIds: formData.getAll("removeAttachment").map(Number).filter(Number.isSafeInteger),
    removePicture: formData.get("removePicture") === "on",
  };
}

/** Files named in one message at most; the rest are counted. */
const NAMED_FILES = 5;

/**
 * A browser cannot keep a chosen file across the answer: each file field whose files are not kept
 * says so and names them, since the browser has forgotten which they were.
 */
function chooseAgain(uploads: { field: string; originalName: string }[]): Record<string, string> {
  const names = (field: string) => uploads.filter((u) => u.field === field).map((u) => u.originalName);
  const listed = (all: string[]) =>
    all.slice(0, NAMED_FILES).join(", ") + (all.length > NAMED_FILES ? ` und ${all.length - NAMED_FILES} weitere` : "");
  const errors: Record<string, string> = {};
  const picture = names("picture");
  const attachments = names("attachments");
  if (picture.length) errors.picture = `Bitte wählen Sie das Foto erneut aus: ${listed(picture)}`;
  if (attachments.length) errors.attachments = `Bitte wählen Sie die Anhänge erneut aus: ${listed(attachments)}`;
  return errors;
}

/** Each file field's message: its own refusals first, then the files of it to choose again. */
function fileMessages(uploads: { field: string; originalName: string }[], problems: UploadError[]) {
  const messages = chooseAgain(uploads);
  for (const field of new Set(problems.map((p) => p.field))) {
    const said = problems.filter((p) => p.field === field).map((p) => p.message);
    messages[field] = [...said, ...(messages[field] ? [messages[field]] : [])].join(" ");
  }
  return messages;
}

/** The refused form's alert: the marked fields, and the files to choose again when it had any. */
function checkFields(hadFiles: boolean) {
  return hadFiles ? "Bitte prüfen Sie die markierten Felder und wählen Sie die Dateien erneut aus." : "Bitte prüfen Sie die markierten Felder.";
}

/**
 * Reads and checks the form. On a problem it answers with a 4xx for the page (nothing stored);
 * otherwise it hands back the input and the stored files. `requestId` names the request in the
 * error line of a failure.
 */
export async function readEventForm(
  request: Request,
  earlier: (key: string | null) => string | null = () => null,
  requestId?: string,
  /** Checks against the saved event, asked too when the form is refused (all messages in one answer). */
  alsoCheck?: (value: { capacity?: number | null; startsAt?: Date }) => Record<string, string[]>,
) {
  let read;
  try {
    read = await readUploadForm(request, { picture: "picture", attachments: "attachment" }, { oneFile: { picture: ONE_PICTURE } });
  } catch (error) {
    if (error instanceof UploadError) {
      return {
        response: json({ result: null, alert: { title: INVALID_FORM, message: error.message }, fileErrors: {}, attempt: Date.now() }, { status: error.status }),
      };
    }
    throw error;
  }
  const { formData, uploads, problems } = read;
  const submissionKey = submissionKeyOf(formData);
  const done = earlier(submissionKey);
  if (done) {
    // The same form again (double click, reload): nothing new, the first result.
    await discardUploads(uploads);
    return { response: redirect(done) };
  }
  const submission = parseWithZod(formData, { schema: eventSchema });
  if (submission.status !== "success" || problems.length) {
    await discardUploads(uploads);
    const fileErrors = fileMessages(uploads, problems);
    return {
      response: json(
        {
          result: submission.reply({ fieldErrors: alsoCheck?.({ capacity: refusedFormCapacity(submission), startsAt: refusedFormStart(submission) }) ?? {} }),
          alert: (submission.status === "success" && serverRefusal(problems)) || {
            title: INVALID_FORM,
            message: checkFields(problems.length > 0 || uploads.length > 0),
          },
          fileErrors,
          attempt: Date.now(),
        },
        { status: problems.find((p) => p.status >= 500)?.status ?? (problems.some((p) => p.status === 413) ? 413 : 400) },
      ),
    };
  }
  try {
    const stored = await storeUploads(uploads);
    return { input: toInput(submission.value, formData), stored, changes: fileChanges(formData), submission, submissionKey };
  } catch (error) {
    if (error instanceof UploadError) {
      return {
        response: json(
          {
            result: submission.reply(),
            alert: { title: INVALID_FORM, message: "Bitte wählen Sie die Dateien erneut aus." },
            // The field that failed says only why; the other file field says to choose its files again.
            fileErrors: fileMessages(uploads.filter((upload) => upload.field !== error.field), [error]),
            attempt: Date.now(),
          },
          { status: error.status },
        ),
      };
    }
    logError(error, requestId, "Dateien der Freizeit nicht gespeichert");
    return { response: failedAnswer(submission) };
  }
}

/** The capacity of a refused form, when its own field is fine (undefined otherwise: not asked). */
function refusedFormCapacity(submission: { error?: Record<string, string[] | null> | null; payload: Record<string, unknown> }) {
  if (submission.error?.capacity) return undefined;
  const raw = submission.payload.capacity;
  if (raw === undefined || raw === "") return null;
  const n = Number(raw);
  return Number.isInteger(n) ? n : undefined;
}

/** The start of a refused form, when its date and time fields are fine (undefined otherwise). */
function refusedFormStart(submission: { error?: Record<string, string[] | null> | null; payload: Record<string, unknown> }) {
  const { dateFrom, timeFrom } = submission.payload;
  if (submission.error?.dateFrom || submission.error?.timeFrom || typeof dateFrom !== "string" || typeof timeFrom !== "string") return undefined;
  if (!isIsoDate(dateFrom) || !isTime(timeFrom)) return undefined;
  return berlinToInstant(dateFrom, timeFrom);
}

/** The answer when the saved event refused values (fewer places than held, a start moved into the
 * past): at their fields, 409. */
export function refusedAnswer(submission: { reply: (options: { fieldErrors: Record<string, string[]> }) => SubmissionResult<string[]> }, refusal: EventFormRefusal, hadFiles: boolean) {
  return json(
    {
      result: submission.reply({ fieldErrors: refusal.fieldErrors as Record<string, string[]> }),
      alert: { title: INVALID_FORM, message: checkFields(hadFiles) },
      fileErrors: {},
      attempt: Date.now(),
    },
    { status: 409 },
  );
}

/** The answer when storing failed after the form was fine: the form as sent, and a German 500. */
export function failedAnswer(submission: { reply: () => SubmissionResult<string[]> }) {
  return json({ result: submission.reply(), alert: GENERIC_FAILURE, fileErrors: {}, attempt: Date.now() }, { status: 500 });
}
