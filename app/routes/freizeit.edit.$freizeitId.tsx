import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EventForm } from "~/components/event-form";
import { RouteError } from "~/components/route-error";
import type { Alert } from "~/components/forms";
import { centsToInput } from "~/lib/event-rules";
import { EventFormRefusal, getEventForEdit, listAdminUsers, listLeadCandidates, refusalsOfSavedEvent, updateEvent } from "~/models/event.server";
import { failedAnswer, readEventForm, refusedAnswer } from "~/services/event-form.server";
import { redirectWithFlash } from "~/services/flash.server";
import { removeStoredFile } from "~/services/uploads.server";
import { earlierSubmission } from "~/models/form-submission.server";
import { db } from "~/services/db.server";
import { requireEventCapability } from "~/services/permissions.server";
import { randomToken } from "~/services/tokens.server";
import { logError, requestIdOf } from "~/services/log.server";
import { berlinToday } from "~/lib/dates";
import { joinNames } from "~/lib/names";
import { mailAddresses, openRegistrations } from "~/models/event-mail.server";

// JavaScript here says files that are too large together before they are sent (the server
// refuses such a body unread, and with it everything typed; decision 0003).
export const handle = { hydrate: true };

export const meta: MetaFunction = () => [{ title: "Veranstaltung bearbeiten – Lagerfeuer" }];

const LOAD_FAILED = "Es gab ein Problem bei der Abfrage der Freizeit. Versuchen Sie es später erneut.";

/** Admins and the event's lead persons may edit; for anyone else the event does not exist. */
async function requireEditor(request: Request, idParam: string | undefined) {
  try {
    const { user, event } = await requireEventCapability(request, idParam, "editEvent");
    return { user, id: event.id };
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 404) throw new Response(LOAD_FAILED, { status: 404 });
    throw thrown;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, id } = await requireEditor(request, params.freizeitId);
  const data = getEventForEdit(id)!;
  const e = data.event;
  return json({
    id,
    admins: listAdminUsers(),
    leadCandidates: listLeadCandidates(id),
    canChangeOwners: user.role === "admin",
    picture: data.picture,
    attachments: data.attachments,
    defaults: {
      submissionKey: randomToken(),
      title: e.title,
      description: e.description,
      dateFrom: e.dateFrom,
      timeFrom: e.timeFrom,
      dateTo: e.dateTo ?? "",
      timeTo: e.timeTo ?? "",
      registrationDeadline: e.registrationDeadline ?? "",
      location: e.location,
      price: centsToInput(e.priceCents),
      capacity: e.capacity === null ? "" : String(e.capacity),
      siblingDiscount: e.siblingDiscount,
      siblingDiscountAmount: e.siblingDiscountCents ? centsToInput(e.siblingDiscountCents) : "",
      offerHours: String(e.offerHours),
      memberRules: e.memberRules,
      ownerIds: data.ownerIds.map(String),
      helperIds: data.helperIds.map(String),
      noRegistration: !e.requiresApplication,
      tshirtSizeRequired: e.tshirtSizeRequired,
      swimBadgeRequired: e.swimBadgeRequired,
      permitsRequired: e.permitsRequired,
      onlyStaffVisible: e.onlyStaffVisible,
    },
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user, id } = await requireEditor(request, params.freizeitId);
  const form = await readEventForm(request, (key) => earlierSubmission(db, key, user.id), requestIdOf(context), (value) => refusalsOfSavedEvent(db, id, value));
  if (form.response) return form.response;
  // Again once the body is in (60 MB may take minutes): a right taken meanwhile counts.
  await requireEditor(request, params.freizeitId).catch(async (refusal: unknown) => {
    await Promise.all(form.stored.map((f) => removeStoredFile(f.kind, f.key)));
    throw refusal;
  });
  let offers = { shortened: 0, extended: 0, ended: 0 };
  let moved: string[] = [];
  try {
    const saved = updateEvent(id, form.input, user, form.stored, form.changes, form.submissionKey);
    ({ offers, moved } = saved);
    await Promise.all(saved.unused.map((f) => removeStoredFile(f.kind, f.key)));
  } catch (error) {
    await Promise.all(form.stored.map((f) => removeStoredFile(f.kind, f.key)));
    if (error instanceof EventFormRefusal) return refusedAnswer(form.submission, error, form.stored.length > 0);
    logError(error, requestIdOf(context), "Freizeit nicht gespeichert");
    return failedAnswer(form.submission);
  }
  const note = [offersSaid(offers), movedSaid(id, moved, form.input)].filter(Boolean).join(" ");
  return redirectWithFlash(`/freizeit/${id}`, { kind: "success", title: "Änderungen gespeichert", ...(note ? { message: note } : {}) });
}

/**
 * A moved start, end or place of an event not yet over: nobody is mailed by itself (a leader
 * decides what to write, and when), so the leaders are told whom the event mail would reach, and
 * that families still open or waiting are not among them (review: an event with only open
 * registrations, the usual case before a camp, said nothing).
 */
function movedSaid(id: number, moved: string[], input: { dateFrom: string; dateTo: string | null }) {
  if (!moved.length || (input.dateTo ?? input.dateFrom) < berlinToday()) return undefined;
  const reached = mailAddresses(id, "both").length;
  const notReached = openRegistrations(id);
  if (!reached && !notReached) return undefined;
  const open =
    notReached === 1
      ? "Die Familie einer Anmeldung, die noch offen ist oder auf der Warteliste steht, erreicht"
      : `Die Familien von ${notReached} Anmeldungen, die noch offen sind oder auf der Warteliste stehen, erreicht`;
  return [
    `Geändert: ${joinNames(moved)}. Familien und Team bekommen dazu keine E-Mail von selbst.`,
    reached ? `„E-Mail an alle“ erreicht ${reached === 1 ? "1 Adresse" : `${reached} Adressen`}.` : "",
    notReached ? `${open} „E-Mail an alle“ nicht.` : "",
  ].filter(Boolean).join(" ");
}

/**
 * What a moved start did to open offers, for the leaders: shortened to it or given their time
 * back (the families mailed), or ended at once when it has passed (the run-out mails follow).
 */
function offersSaid({ shortened, extended, ended }: { shortened: number; extended: number; ended: number }) {
  const families = (n: number) => (n === 1 ? "die Familie bekommt dazu eine E-Mail." : "die Familien bekommen dazu eine E-Mail.");
  if (shortened) return `${shortened === 1 ? "Ein offenes Platzangebot endet" : `${shortened} offene Platzangebote enden`} jetzt mit Beginn der Veranstaltung; ${families(shortened)}`;
  if (extended) return `${extended === 1 ? "Ein offenes Platzangebot gilt" : `${extended} offene Platzangebote gelten`} jetzt wieder länger; ${families(extended)}`;
  if (ended) return `${ended === 1 ? "Ein offenes Platzangebot ist" : `${ended} offene Platzangebote sind`} damit abgelaufen, weil die Veranstaltung schon begonnen hat; ${families(ended)}`;
  return undefined;
}

export default function EditEvent() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>Veranstaltung bearbeiten</h1>
      <EventForm
        id="edit-event"
        admins={data.admins}
        leadCandidates={data.leadCandidates}
        defaults={data.defaults}
        lastResult={actionData?.result ?? undefined}
        alert={actionData?.alert as Alert | undefined}
        fileErrors={actionData?.fileErrors}
        attempt={actionData?.attempt}
        submitLabel="Änderungen Speichern"
        picture={data.picture}
        attachments={data.attachments}
        canChangeOwners={data.canChangeOwners}
        cancelTo={`/freizeit/${data.id}`}
      />
    </>
  );
}

/** The spec's message when the event cannot be loaded (part 1 §8), inside the page. */
export function ErrorBoundary() {
  return <RouteError />;
}
