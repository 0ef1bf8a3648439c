// Lagerblätter (camp sheets, issue 11 item 5): /freizeit/participants/{id}/notfall for every
// group, /freizeit/participants/{id}/notfall/{groupId} for one. Staff of the event only (lead
// persons, accepted helpers, admins); anyone else gets 404. A print view: no PDF library.
import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useLoaderData } from "@remix-run/react";
import { CampSheet } from "~/components/camp-sheet";
import { useHydrated } from "~/components/forms";
import { RouteError } from "~/components/route-error";
import { formatDate, formatTime } from "~/lib/dates";
import { getCampSheets } from "~/models/camp-sheet.server";
import { requireEventCapability } from "~/services/permissions.server";
import { idFrom } from "~/lib/ids";

export const handle = { hydrate: true };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Lagerblätter ${data.event.title} – Lagerfeuer` : "Lagerblätter – Lagerfeuer" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { event } = await requireEventCapability(request, params.id, "viewDetails", "not-found");
  let groupId: number | null = null;
  if (params.groupId !== undefined) {
    groupId = idFrom(params.groupId) ?? NaN;
    if (!Number.isSafeInteger(groupId)) throw new Response("Nicht gefunden", { status: 404 });
  }
  const data = getCampSheets(event.id, groupId);
  if (!data) throw new Response("Nicht gefunden", { status: 404 });
  const now = new Date();
  return json(
    { ...data, allGroups: groupId === null, printedAt: `${formatDate(now)}, ${formatTime(now)}` },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

function PrintButton() {
  const hydrated = useHydrated();
  return hydrated ? (
    <button type="button" onClick={() => window.print()}>
      Drucken
    </button>
  ) : (
    <p className="hint">Zum Drucken die Druckfunktion des Browsers nutzen (am Computer: Strg+P).</p>
  );
}

export default function CampSheets() {
  const { event, sheets, allGroups, printedAt } = useLoaderData<typeof loader>();
  const base = `/freizeit/participants/${event.id}/notfall`;
  return (
    <article className="camp-sheets">
      <div className="no-print sheet-tools">
        <h1>Lagerblätter {event.title}</h1>
        <p>Für den Tag ohne Internet: eine Seite je Gruppe, mit den Telefonnummern der Erziehungsberechtigten.</p>
        <PrintButton />
        {sheets.length > 1 || !allGroups ? (
          <nav aria-label="Lagerblatt einer Gruppe">
            <ul className="link-list">
              {allGroups ? null : (
                <li>
                  <a href={base}>Alle Gruppen</a>
                </li>
              )}
              {allGroups
                ? sheets
                    .filter((s) => s.id !== null)
                    .map((s) => (
                      <li key={s.id}>
                        <a href={`${base}/${s.id}`}>Nur Gruppe {s.name}</a>
                      </li>
                    ))
                : null}
            </ul>
          </nav>
        ) : null}
        <p>
          <a href={`/freizeit/participants/${event.id}`} className="button secondary">
            Zurück zur Teilnehmer*innen-Liste
          </a>
        </p>
      </div>
      {sheets.map((group) => (
        <CampSheet key={group.id ?? "ohne"} event={event} group={group} printedAt={printedAt} />
      ))}
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
