// Reading the create/edit form of an event: fields, uploads and file changes, checked.
import { parseWithZod } from "~/services/parse-form.server";
import { redirect } from "@remix-run/node";
import { json } from "~/services/json.server";
import type { EventInput, FileChanges } from "~/models/event.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import { eventSchema, INVALID_FORM } from "~/schemas/event";
import { discardUploads, readUploadForm, serverRefusal, storeUploads, UploadError } from "./uploads.server";

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

const CHOOSE_AGAIN = { picture: "Bitte wähle das Bild erneut aus.", attachments: "Bitte wähle die Anhänge erneut aus." };

/**
 * Reads and checks the form. On a problem it answers with a 4xx for the page (nothing stored);
 * otherwise it hands back the input and the stored files.
 */
export async function readEventForm(request: Request, earlier: (key: string | null) => string | null = () => null) {
  let read;
  try {
    read = await readUploadForm(request, { picture: "picture", attachments: "attachment" });
  } catch (error) {
    if (error instanceof UploadError) {
      return { response: json({ result: null, alert: { title: INVALID_FORM, message: error.message }, fileErrors: {} }, { status: error.status }) };
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
    // A browser cannot keep a chosen file across the answer: each file field whose files are not
    // kept says so, its own refusal first.
    const fileErrors = {
      ...Object.fromEntries(uploads.map((upload) => [upload.field, CHOOSE_AGAIN[upload.field as keyof typeof CHOOSE_AGAIN]])),
      ...Object.fromEntries(problems.map((p) => [p.field, p.message])),
    };
    return {
      response: json(
        {
          result: submission.reply(),
          alert: (submission.status === "success" && serverRefusal(problems)) || {
            title: INVALID_FORM,
            message: problems.length || uploads.length ? "Bitte prüfe die markierten Felder und wähle die Dateien erneut aus." : "Bitte prüfe die markierten Felder.",
          },
          fileErrors,
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
          { result: submission.reply(), alert: { title: INVALID_FORM, message: "Bitte wähle die Dateien erneut aus." }, fileErrors: { [error.field]: error.message } },
          { status: error.status },
        ),
      };
    }
    console.error(error);
    return { response: json({ result: submission.reply(), alert: GENERIC_FAILURE, fileErrors: {} }, { status: 500 }) };
  }
}

export { GENERIC_FAILURE };
