// Mitarbeiter*innen-Details (spec part 2 §2.7; issue 11 item 3): name, e-mail as a mailto link,
// phone if known, group, state and the helper checks; staff of the event only (404 otherwise).
// Lead persons and admins record an accepted helper's checks here, where the warning shows.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { HelperChecksForm } from "~/components/helper-checks-form";
import { RouteError } from "~/components/route-error";
import { formatIsoDate } from "~/lib/dates";
import { getHelperDetail } from "~/models/helper.server";
import { handleHelperChecksForm, type HelperChecksActionData } from "~/services/helper-check-form.server";
import { requireEventCapability } from "~/services/permissions.server";
import { idFrom } from "~/lib/ids";
import { PhoneLink } from "~/components/phone-link";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Mitarbeiter*innen-Details „${data.event.title}“ – Lagerfeuer` : "Mitarbeiter*innen-Details – Lagerfeuer" },
];

// Its JavaScript says an impossible date typed into a check's date field as such
// (components/impossible-dates.ts); without it the browser sends the field empty.
export const handle = { hydrate: true };

const STATUS_WORDS = { pending: "Bewerbung offen", accepted: "Angenommen", declined: "Abgelehnt" } as const;

const NOT_FOUND = "Nutzer*in nicht gefunden";

/**
 * The event, when the person may see its helpers' details. The spec's states in German
 * (DECISIONS.md): an address without two ids 'Ungültige Angaben', an event that does not exist
 * or is not theirs 'Die Veranstaltung konnte nicht geladen werden' (the same 404 for both).
 */
async function eventOfPage(request: Request, params: LoaderFunctionArgs["params"]) {
  if (idFrom(params.freizeitId) === null || idFrom(params.userId) === null) throw new Response("Ungültige Angaben", { status: 404 });
  try {
    return await requireEventCapability(request, params.freizeitId, "viewDetails", "not-found");
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 404) throw new Response("Die Veranstaltung konnte nicht geladen werden", { status: 404 });
    throw thrown;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { event, may } = await eventOfPage(request, params);
  const helper = getHelperDetail(event.id, idFrom(params.userId) ?? 0);
  if (!helper) throw new Response(NOT_FOUND, { status: 404 });
  const mayRecordChecks = may.recordHelperChecks && helper.status === "accepted";
  return json({ event: { id: event.id, title: event.title }, helper, mayRecordChecks }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Who may record the checks of which helper: an accepted one of this event, by its lead persons and admins. */
async function checksGuard(request: Request, params: ActionFunctionArgs["params"]) {
  const { event } = await requireEventCapability(request, params.freizeitId, "recordHelperChecks", "not-found");
  const helper = getHelperDetail(event.id, idFrom(params.userId) ?? 0);
  if (!helper || helper.status !== "accepted") throw new Response(NOT_FOUND, { status: 404 });
  return { event, helper };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { event, helper } = await checksGuard(request, params);
  return handleHelperChecksForm(request, helper.userId, `/freizeit/helper/${event.id}/helper-details/${helper.userId}`, () => checksGuard(request, params));
}

export default function HelperDetail() {
  const { event, helper, mayRecordChecks } = useLoaderData<typeof loader>();
  const checksReply = (useActionData() as HelperChecksActionData | undefined)?.helperChecks;
  return (
    <article className="review helper-detail">
      <h1>Mitarbeiter*innen-Details "{event.title}"</h1>
      <section className="panel" aria-labelledby="helper-name">
        <h2 id="helper-name">
          {helper.firstName} {helper.lastName}
        </h2>
        <dl className="facts">
          <dt>E-Mail</dt>
          <dd>
            <a href={`mailto:${helper.email}`}>{helper.email}</a>
          </dd>
          {helper.phone ? (
            <>
              <dt>Telefon</dt>
              <dd>
                <PhoneLink number={helper.phone} />
              </dd>
            </>
          ) : null}
          <dt>Status</dt>
          <dd>{STATUS_WORDS[helper.status]}</dd>
          <dt>Gruppe</dt>
          <dd>{helper.groupName ?? "Keine Gruppe"}</dd>
        </dl>
      </section>
      <section className="panel" aria-labelledby="helper-checks">
        <h2 id="helper-checks">Nachweise</h2>
        <dl className="facts">
          <dt>Erweitertes Führungszeugnis</dt>
          <dd>
            {helper.policeCertificateCheckedOn
              ? `eingesehen am ${formatIsoDate(helper.policeCertificateCheckedOn)}${helper.policeCertificateCheckedBy ? ` von ${helper.policeCertificateCheckedBy}` : ""}`
              : "nicht eingetragen"}
          </dd>
          <dt>Juleica</dt>
          <dd>
            {helper.juleicaNumber
              ? `${helper.juleicaNumber}${helper.juleicaExpiresOn ? `, gültig bis ${formatIsoDate(helper.juleicaExpiresOn)}` : ""}`
              : "nicht eingetragen"}
          </dd>
        </dl>
        {helper.warnings.length ? (
          <ul className="check-warnings">
            {helper.warnings.map((w) => (
              <li key={w.kind}>⚠ {w.text}</li>
            ))}
          </ul>
        ) : (
          <p className="status status-ok">Alle Nachweise sind für diese Veranstaltung gültig.</p>
        )}
      </section>
      {mayRecordChecks ? (
        <HelperChecksForm
          action={`/freizeit/helper/${event.id}/helper-details/${helper.userId}`}
          values={checksReply?.values ?? helper}
          errors={checksReply?.errors}
          attempt={checksReply?.attempt}
        />
      ) : null}
      <p>
        <a href={`/freizeit/helper/${event.id}`} className="button secondary">
          Zurück zur Mitarbeiter*innen-Liste
        </a>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError title="Keine Daten gefunden" />;
}
