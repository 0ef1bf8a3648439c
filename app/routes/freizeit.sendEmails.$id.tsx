// /freizeit/sendEmails/{id} (spec §2.9): the event e-mail of lead persons and admins, and the log
// of the event's mails. One outbox mail per address; attachments stored once.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EventMailForm, type EventMailFormData } from "~/components/event-mail-form";
import { EventMailLog } from "~/components/event-mail-log";
import { eventMailLog, mailAddresses, recipientCounts, resendFailed, sendEventMail, type StoredAttachment } from "~/models/event-mail.server";
import { EVENT_MAIL_AUDIENCES, type EventMailAudience } from "~/lib/enums";
import { ATTACHMENT_ROWS, INVALID, parseEventMail } from "~/schemas/event-mail";
import { redirectWithFlash } from "~/services/flash.server";
import { requireEventCapability } from "~/services/permissions.server";
import { displayFileName } from "~/lib/file-names";
import { earlierSubmission, submissionKeyOf } from "~/models/form-submission.server";
import { db } from "~/services/db.server";
import { randomToken } from "~/services/tokens.server";
import { ATTACHMENT_MAX_BYTES, discardUploads, readUploadForm, removeStoredFile, serverRefusal, storeUploads, UploadError } from "~/services/uploads.server";
import { idFrom } from "~/lib/ids";
import { logError, requestIdOf } from "~/services/log.server";

const NOBODY = "Für diese Auswahl gibt es keine Empfänger*innen.";
const isAudience = (value: unknown): value is EventMailAudience => (EVENT_MAIL_AUDIENCES as readonly unknown[]).includes(value);

export const handle = { hydrate: true };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `E-Mail zur Veranstaltung ${data.event.title} – Lagerfeuer` : "E-Mail zur Veranstaltung – Lagerfeuer" },
];

/** DECISIONS.md, 'Event e-mail log': 10 MB each (the upload reader's limit), 20 MB together. */
const ATTACHMENTS_MAX_BYTES = 20 * 1024 * 1024;
const FAILURE = { title: "Fehler", message: "Ein Fehler ist aufgetreten. Bitte versuchen Sie es später erneut." };
const TOO_LARGE_TOGETHER = "Die Anhänge sind zusammen zu groß. Erlaubt sind höchstens 20 MB.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { event } = await requireEventCapability(request, params.id, "sendEventMail", "not-found");
  return json({
    event: { id: event.id, title: event.title },
    counts: recipientCounts(event.id),
    mails: eventMailLog(event.id),
    // A form sent twice (a double click, a retry) sends one mail.
    submissionKey: randomToken(),
  });
}

const FILE_FIELDS = Object.fromEntries(Array.from({ length: ATTACHMENT_ROWS }, (_, i) => [`attachment${i + 1}`, "attachment" as const]));

function answer(data: EventMailFormData, status: number) {
  return json(data, { status });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  // Checked before the body is read (a stranger's attachments are not read) and again once it
  // is in: a body may take minutes, and a right taken meanwhile counts.
  await requireEventCapability(request, params.id, "sendEventMail", "not-found");
  let read: Awaited<ReturnType<typeof readUploadForm>>;
  try {
    // Every row's file at its own limit and the text fields are read, so that more than 20 MB
    // together is answered below with what was typed and chosen (refused while reading, the form
    // came back empty and its recipients reset).
    read = await readUploadForm(request, FILE_FIELDS, { maxBytes: ATTACHMENT_ROWS * ATTACHMENT_MAX_BYTES + 256 * 1024 });
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.together ? TOO_LARGE_TOGETHER : error.message;
      return answer({ alert: { title: INVALID, message } }, error.status);
    }
    throw error;
  }
  const { formData, uploads, problems } = read;
  const { event, user } = await requireEventCapability(request, params.id, "sendEventMail", "not-found").catch(async (refusal: unknown) => {
    await discardUploads(uploads);
    throw refusal;
  });
  const submissionKey = submissionKeyOf(formData);
  const sentAlready = () => redirectWithFlash(`/freizeit/${event.id}`, { kind: "success", title: "Erfolg", message: "E-Mail wurde erfolgreich gesendet!" });
  if (earlierSubmission(db, submissionKey, user.id)) {
    await discardUploads(uploads);
    return sentAlready();
  }

  if (formData.get("intent") === "resend") {
    await discardUploads(uploads);
    const resent = resendFailed(event.id, idFrom(formData.get("mailId")) ?? 0);
    if (resent === null) throw new Response("Nicht gefunden", { status: 404 });
    return redirectWithFlash(`/freizeit/sendEmails/${event.id}`, {
      kind: "success",
      title: "Erfolg",
      message: resent === 1 ? "1 E-Mail wird erneut gesendet." : `${resent} E-Mails werden erneut gesendet.`,
    });
  }

  const text = (name: string) => String(formData.get(name) ?? "");
  const values = {
    subject: text("subject"),
    text: text("text"),
    audience: text("audience") || "both",
    // After a refusal the display names typed stay, and the rows that had a file stay open: only
    // the files must be chosen again.
    attachmentNames: Array.from({ length: ATTACHMENT_ROWS }, (_, i) => text(`attachmentName${i + 1}`)),
    attachmentRowsUsed: Array.from({ length: ATTACHMENT_ROWS }, (_, i) => [...uploads, ...problems].some((u) => u.field === `attachment${i + 1}`)),
  };
  const parsed = parseEventMail(formData);
  const fileErrors: Record<string, string> = Object.fromEntries(problems.map((p) => [p.field, p.message]));
  const total = uploads.reduce((sum, u) => sum + u.size, 0);
  if (!parsed.ok || problems.length || total > ATTACHMENTS_MAX_BYTES) {
    await discardUploads(uploads);
    // A file over its own limit is said beside it; the alert speaks of all files only when they are.
    const together = total > ATTACHMENTS_MAX_BYTES;
    const tooLarge = together || problems.some((p) => p.status === 413);
    const message = together ? TOO_LARGE_TOGETHER : problems.length ? "Bitte wählen Sie die Anhänge erneut aus." : undefined;
    const status = problems.find((p) => p.status >= 500)?.status ?? (tooLarge ? 413 : 400);
    const alert = (parsed.ok && !tooLarge && serverRefusal(problems)) || { title: INVALID, message };
    // A choice that reaches nobody is said now too, not after the next send.
    const audience = formData.get("audience") ?? "both";
    const unreached = !(parsed.ok ? undefined : parsed.errors.audience) && isAudience(audience) && mailAddresses(event.id, audience).length === 0;
    return answer({ alert, errors: { ...(parsed.ok ? {} : parsed.errors), ...(unreached && { audience: NOBODY }) }, fileErrors, values }, status);
  }

  let stored: Awaited<ReturnType<typeof storeUploads>>;
  try {
    stored = await storeUploads(uploads);
  } catch (error) {
    await discardUploads(uploads);
    if (error instanceof UploadError) {
      return answer(
        { alert: { title: INVALID, message: "Bitte wählen Sie die Anhänge erneut aus." }, fileErrors: { [error.field]: error.message }, values },
        error.status,
      );
    }
    throw error;
  }
  const attachments: StoredAttachment[] = stored.map((file) => ({
    // The name a family sees: the display name given, else the file's own.
    filename: displayFileName(text(file.field.replace("attachment", "attachmentName")), file.key, file.displayName),
    path: `attachments/${file.key}`,
    contentType: file.mimeType,
    size: file.size,
    key: file.key,
  }));

  const removeStored = () => Promise.all(stored.map((file) => removeStoredFile("attachment", file.key)));
  let sent: ReturnType<typeof sendEventMail>;
  try {
    sent = sendEventMail(event, user, { ...parsed.data, attachments }, submissionKey);
  } catch (error) {
    logError(error, requestIdOf(context), "Die E-Mail zur Veranstaltung konnte nicht gespeichert werden");
    await removeStored();
    return answer({ alert: FAILURE, values }, 503);
  }
  if (sent === null || sent.repeated) await removeStored();
  if (sent === null) return answer({ alert: { title: INVALID, message: NOBODY }, errors: { audience: NOBODY }, values }, 400);
  return sentAlready();
}

export default function SendEmails() {
  const { event, counts, mails, submissionKey } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as EventMailFormData | undefined;
  return (
    <>
      <h1>E-Mail zur Veranstaltung</h1>
      <p className="lead">{event.title}</p>
      <EventMailForm key={JSON.stringify(data?.values ?? null)} eventId={event.id} counts={counts} data={data} submissionKey={submissionKey} />
      <EventMailLog mails={mails} />
    </>
  );
}
