// Mitarbeiter*innen-Liste (spec part 2 §2.6, §4, §5; issue 11 items 1, 2, 4, 6): pending and
// accepted helpers in the order of part 1 §4 with their group, check warnings and the decisions
// of the lead persons and admins; the declined ones apart; the event's groups above the table.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { GroupManager } from "~/components/group-manager";
import { DeclinedHelpers, HelperDecisionStep, HelperTable, type HelperStep } from "~/components/helper-table";
import { ListNavigation } from "~/components/review-summary";
import { RouteError } from "~/components/route-error";
import { listGroupsWithCounts } from "~/models/group.server";
import { decideHelper, isHelperDecision, listHelpers } from "~/models/helper.server";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm, LIST_MAX_FIELDS } from "~/services/form.server";
import { CONFIRM_DELETE_PARAM, handleGroupForm, INVALID_INPUT, isGroupIntent } from "~/services/group-form.server";
import { requireEventCapability } from "~/services/permissions.server";
import { randomToken } from "~/services/tokens.server";

export const handle = { hydrate: true };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Mitarbeiter*innen Liste ${data.event.title} – Lagerfeuer` : "Mitarbeiter*innen Liste – Lagerfeuer" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { event, may } = await requireEventCapability(request, params.id, "viewLists", "home");
  const helpers = listHelpers(event.id);
  if (!helpers) throw new Response("Nicht gefunden", { status: 404 });
  const groups = listGroupsWithCounts(event.id);
  const search = new URL(request.url).searchParams;
  const asked = Number(search.get(CONFIRM_DELETE_PARAM));
  return json(
    {
      event: { id: event.id, title: event.title },
      step: may.decideHelpers ? helperStep(search, helpers.active) : null,
      may: { decideHelpers: may.decideHelpers, assignGroups: may.assignGroups, manageGroups: may.manageGroups, viewDetails: may.viewDetails },
      groups,
      confirmId: may.manageGroups && groups.some((g) => g.id === asked) ? asked : null,
      // The create form's one-time key: the same form sent twice makes one group.
      groupFormKey: may.manageGroups ? randomToken() : null,
      ...helpers,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The decline or cancellation asked about (`?entscheiden=…&helfer=…`), if it can be made now. */
function helperStep(search: URLSearchParams, active: { userId: number; firstName: string; lastName: string; status: string }[]): HelperStep | null {
  const intent = search.get("entscheiden");
  if (intent !== "decline" && intent !== "cancel") return null;
  const helper = active.find((h) => String(h.userId) === search.get("helfer"));
  if (!helper || helper.status !== (intent === "decline" ? "pending" : "accepted")) return null;
  return { intent, userId: helper.userId, name: `${helper.firstName} ${helper.lastName}` };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { event, user } = await requireEventCapability(request, params.id, "viewLists", "home");
  const form = await readForm(request, { maxFields: LIST_MAX_FIELDS });
  const intent = form.get("intent");
  const backTo = `/freizeit/helper/${event.id}`;
  if (isGroupIntent(intent)) return handleGroupForm(request, event.id, backTo, form);
  if (!isHelperDecision(intent)) throw new Response(INVALID_INPUT, { status: 400 });
  await requireEventCapability(request, event.id, "decideHelpers", "not-found");
  const raw = form.get("helperUserId");
  if (typeof raw !== "string" || !/^[1-9]\d{0,15}$/.test(raw)) throw new Response(INVALID_INPUT, { status: 400 });
  const outcome = decideHelper(event.id, Number(raw), intent, user);
  if (!outcome.ok) return json({ error: { title: outcome.title, message: outcome.message } }, { status: outcome.status });
  return redirectWithFlash(backTo, { kind: "success", title: outcome.title, message: outcome.message }, { request });
}

export default function HelperList() {
  const { event, may, groups, confirmId, groupFormKey, active, declined, step } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const error = answer && "error" in answer ? answer.error : undefined;
  const groupReply = answer && "groupName" in answer ? answer.groupName : undefined;
  const listUrl = `/freizeit/helper/${event.id}`;
  const shared = { eventId: event.id, action: listUrl, groups, may };
  return (
    <article className="review helper-list">
      <ListNavigation eventId={event.id} current="helpers" />
      <h1>Mitarbeiter*innen Liste {event.title}</h1>
      <FormAlert alert={error} />
      {step ? <HelperDecisionStep step={step} action={listUrl} /> : null}
      {may.manageGroups ? <GroupManager action={listUrl} groups={groups} confirmId={confirmId} reply={groupReply} submissionKey={groupFormKey ?? ""} /> : null}
      {active.length + declined.length === 0 ? <p className="empty">Noch keine Mitarbeiter vorhanden</p> : null}
      {active.length ? <HelperTable helpers={active} {...shared} /> : null}
      {declined.length ? <DeclinedHelpers helpers={declined} action={listUrl} may={may} /> : null}
      <p className="actions">
        <a href={`/freizeit/${event.id}`} className="button secondary">
          Zurück zur Veranstaltung
        </a>
        {may.viewDetails ? (
          <a href={`/freizeit/participants/${event.id}/notfall`} className="button secondary">
            Lagerblätter drucken
          </a>
        ) : null}
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
