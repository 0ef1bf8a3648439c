// Teilnehmer*innen-Liste (spec part 2 §2.5, issue 10 items 2 and 3): the numbers at a glance,
// open and accepted registrations with their decisions, the waiting list, the rejected ones and
// the open SEPA direct debits; filter and name search as GET parameters.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EnrolmentPayments } from "~/components/enrolment-payment";
import { ExportMenu } from "~/components/export-menu";
import { STEP_ANCHOR } from "~/components/confirm-dialog";
import { DecisionStep, parseStep, stepAllowed, type DecisionReply } from "~/components/review-decisions";
import { rowAnchor } from "~/lib/row-anchors";
import { ListFilterForm, ListNavigation, ListNumbers, ListPager } from "~/components/review-summary";
import { OpenSepaList, RegistrationTable, RejectedList, WaitingList } from "~/components/review-table";
import { BULK_FORM_ID, BulkAcceptForm, BulkAcceptStep, bulkStepSearch, parseBulkStep, PICKED } from "~/components/bulk-accept";
import { FormAlert } from "~/components/forms";
import { RouteError } from "~/components/route-error";
import { listSearch, parseListQuery } from "~/lib/review-filter";
import { listEventGroups } from "~/models/group.server";
import { acceptableAmong, decisionSubject, getParticipantList, nextInLineFor, noPlaceFor } from "~/models/review.server";
import { NONE_PICKED } from "~/models/registration-decision.server";
import { enrolmentPaymentsIn } from "~/models/enrolment-payment.server";
import { handleDecisionForm } from "~/services/decision-form.server";
import { readForm, LIST_MAX_FIELDS } from "~/services/form.server";
import { handleGroupForm, isGroupIntent } from "~/services/group-form.server";
import { requireEventCapability } from "~/services/permissions.server";
import { idFrom } from "~/lib/ids";

/** Scripts here: decisions in a dialog and without a full reload (docs/decisions/0003). */
export const handle = { hydrate: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Teilnehmer*innen-Liste ${data.event.title} – Lagerfeuer` : "Teilnehmer*innen-Liste – Lagerfeuer" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireEventCapability(request, params.id, "viewLists", "home");
  const { event, may } = access;
  const url = new URL(request.url);
  const query = parseListQuery(url.searchParams);
  const list = getParticipantList(event.id, event.capacity, query, may.viewSepa);
  const asked = parseStep(url.searchParams);
  const subject = asked ? decisionSubject(event.id, asked.registrationId) : null;
  const step =
    asked && subject && stepAllowed(asked, subject, may)
      ? { intent: asked.intent, registrationId: subject.id, name: `${subject.firstName} ${subject.lastName}`, ...noPlaceFor(event, asked.intent, subject, may), ...nextInLineFor(event, asked.intent, subject) }
      : null;
  // 'Ausgewählte annehmen': its step names the ticked children that accepting takes.
  const picked = may.decideRegistrations ? parseBulkStep(url.searchParams) : null;
  const acceptable = picked ? acceptableAmong(event.id, picked) : [];
  const bulkStep = acceptable.length ? { rows: acceptable, ticked: picked!.length } : null;
  const bulkRefusal = picked && !bulkStep ? { title: picked.length === 1 ? "Die ausgewählte Anmeldung ist nicht mehr offen." : picked.length ? "Die ausgewählten Anmeldungen sind nicht mehr offen." : NONE_PICKED, attempt: Date.now() } : null;
  // The group select (spec §2.5) needs the event's groups: one query, whatever the list's length.
  const groups = may.assignGroups ? listEventGroups(event.id) : [];
  // A bank statement's line in the search: the enrolments its transfer pays, for whoever confirms
  // payments.
  const { found: enrolmentPayments, unknown: unknownReferences } = may.confirmPayments ? enrolmentPaymentsIn(query.search, event.id) : { found: [], unknown: [] };
  return json(
    {
      event: { id: event.id, title: event.title },
      may: {
        decideRegistrations: may.decideRegistrations,
        confirmPayments: may.confirmPayments,
        viewSepa: may.viewSepa,
        export: may.export,
        assignGroups: may.assignGroups,
        viewDetails: may.viewDetails,
      },
      groups,
      enrolmentPayments,
      unknownReferences,
      query,
      step,
      bulkStep,
      bulkRefusal,
      ...list,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { event } = await requireEventCapability(request, params.id, "viewLists", "home");
  const url = new URL(request.url);
  url.searchParams.delete("entscheiden");
  url.searchParams.delete("anmeldung");
  url.searchParams.delete(PICKED);
  const backTo = `/freizeit/participants/${event.id}${url.search}`;
  // Read once; the intent says whose form it is (both handlers ask the permissions module).
  const form = await readForm(request, { maxFields: LIST_MAX_FIELDS });
  if (isGroupIntent(form.get("intent"))) return handleGroupForm(request, event.id, backTo, form);
  // Done, the list opens at the decided row; refused, the answer opens where the form was (a
  // step's form posts to its own anchor, so its message is in view).
  const registrationId = idFrom(form.get("registrationId"));
  const row = registrationId ? `#${rowAnchor(registrationId)}` : "";
  return handleDecisionForm(request, event.id, `${backTo}${row}`, form);
}

export default function ParticipantList() {
  const { event, may, groups, enrolmentPayments, unknownReferences, query: asked, step, bulkStep, bulkRefusal, counts, table, waiting, rejected, openSepa, paging } = useLoaderData<typeof loader>();
  const reply = useActionData<DecisionReply>()?.decision;
  const query = { ...asked, page: paging.page };
  const search = listSearch(query);
  const listPath = `/freizeit/participants/${event.id}`;
  const listUrl = `${listPath}${search}`;
  const errorFor = (id: number) =>
    reply && reply.registrationId === id && !(step && step.registrationId === id) ? (reply.message ?? reply.fieldErrors?.reason?.[0] ?? null) : null;
  const shared = { may, actionUrl: listUrl, pageSearch: search, errorFor };
  const bulk = may.decideRegistrations && table.some((r) => r.applicationStatus === "open");
  const nothingShown = table.length + waiting.length + rejected.length === 0;
  const stepError = reply && step && reply.registrationId === step.registrationId ? { reason: reply.fieldErrors?.reason, message: reply.message } : null;
  const bulkError = reply && bulkStep && reply.intent === "accept-many" ? { reason: reply.fieldErrors?.reason, message: reply.message } : null;
  const generalError = reply && reply.registrationId === null && !bulkError ? reply.message : null;

  return (
    <article className="review">
      <ListNavigation eventId={event.id} current="participants" />
      <h1>Teilnehmer*innen-Liste {event.title}</h1>
      <ListNumbers counts={counts} />

      {step ? (
        <DecisionStep
          step={step}
          actionUrl={`${listUrl}${search ? "&" : "?"}entscheiden=${step.intent}&anmeldung=${step.registrationId}#${STEP_ANCHOR}`}
          cancelUrl={`${listUrl}#${rowAnchor(step.registrationId)}`}
          error={stepError}
        />
      ) : null}
      {bulkStep ? (
        <BulkAcceptStep
          step={bulkStep}
          actionUrl={`${listPath}${bulkStepSearch(search, bulkStep.rows.map((r) => r.id))}#${STEP_ANCHOR}`}
          cancelUrl={`${listUrl}#${BULK_FORM_ID}`}
          error={bulkError}
        />
      ) : null}
      <FormAlert alert={generalError ? { title: generalError } : bulkRefusal} attempt={generalError ? reply?.attempt : bulkRefusal?.attempt} />

      {counts.total === 0 ? (
        <p className="empty">Noch keine Anmeldungen vorhanden</p>
      ) : (
        <>
          <ListFilterForm eventId={event.id} query={query} />
          <EnrolmentPayments payments={enrolmentPayments} unknown={unknownReferences} actionUrl={listUrl} />
          {nothingShown ? <p className="empty">Keine Anmeldungen für diese Auswahl gefunden.</p> : null}
          {table.length > 0 ? (
            <section aria-labelledby="anmeldungen-titel" className="review-section">
              <h2 id="anmeldungen-titel">Anmeldungen</h2>
              {bulk ? <BulkAcceptForm listPath={listPath} pageSearch={search} /> : null}
              <RegistrationTable rows={table} bulk={bulk} groups={groups} assignGroups={may.assignGroups} {...shared} />
            </section>
          ) : null}
          {waiting.length > 0 ? <WaitingList rows={waiting} {...shared} /> : null}
          {rejected.length > 0 ? <RejectedList rows={rejected} {...shared} /> : null}
          <ListPager eventId={event.id} query={query} paging={paging} />
          {openSepa.length > 0 ? <OpenSepaList eventId={event.id} mandates={openSepa} /> : null}
        </>
      )}

      <div className="actions">
        <a href={`/freizeit/${event.id}`} className="button secondary">
          Zurück zur Veranstaltung
        </a>
        {may.viewDetails ? (
          <a href={`/freizeit/participants/${event.id}/notfall`} className="button secondary">
            Lagerblätter drucken
          </a>
        ) : null}
        {may.export ? <ExportMenu eventId={event.id} /> : null}
      </div>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
