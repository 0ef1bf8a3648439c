import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EventForm } from "~/components/event-form";
import type { Alert } from "~/components/forms";
import { createEvent, listAdminUsers } from "~/models/event.server";
import { earlierSubmission } from "~/models/form-submission.server";
import { db } from "~/services/db.server";
import { randomToken } from "~/services/tokens.server";
import { failedAnswer, readEventForm } from "~/services/event-form.server";
import { redirectWithFlash } from "~/services/flash.server";
import { removeStoredFile } from "~/services/uploads.server";
import { requireAdmin } from "~/services/session.server";
import { logError, requestIdOf } from "~/services/log.server";

// JavaScript here says files that are too large together before they are sent (the server
// refuses such a body unread, and with it everything typed; decision 0003).
export const handle = { hydrate: true };

export const meta: MetaFunction = () => [{ title: "Neue Veranstaltung anlegen – Lagerfeuer" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return json({ admins: listAdminUsers(), me: admin.id, submissionKey: randomToken() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const asked = await requireAdmin(request);
  const form = await readEventForm(request, (key) => earlierSubmission(db, key, asked.id), requestIdOf(context));
  if (form.response) return form.response;
  // Asked again once the files are in (a slow upload may take minutes): rights taken meanwhile count.
  const admin = await requireAdmin(request).catch(async (refusal: unknown) => {
    await Promise.all(form.stored.map((f) => removeStoredFile(f.kind, f.key)));
    throw refusal;
  });
  try {
    const created = createEvent(form.input, admin, form.stored, form.submissionKey);
    // A repeated submission that slipped past the early check: its files are not needed.
    if (created.repeated) await Promise.all(form.stored.map((f) => removeStoredFile(f.kind, f.key)));
    return redirectWithFlash(`/freizeit/${created.id}`, { kind: "success", title: "Veranstaltung veröffentlicht" });
  } catch (error) {
    logError(error, requestIdOf(context), "Freizeit nicht angelegt");
    await Promise.all(form.stored.map((f) => removeStoredFile(f.kind, f.key)));
    return failedAnswer(form.submission);
  }
}

export default function CreateEvent() {
  const { admins, me, submissionKey } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>Neue Veranstaltung anlegen</h1>
      <EventForm
        id="create-event"
        admins={admins}
        leadCandidates={admins}
        defaults={{ ownerIds: [String(me)], price: "0", offerHours: "48", submissionKey }}
        lastResult={data?.result ?? undefined}
        alert={data?.alert as Alert | undefined}
        fileErrors={data?.fileErrors}
        attempt={data?.attempt}
        submitLabel="Veranstalltung veröffentlichen"
        canChangeOwners
        cancelTo="/"
      />
    </>
  );
}
