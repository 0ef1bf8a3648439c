// A registration's detail (spec part 2 §2.4, issue 10 item 5): guardian, participant, the
// registration's answers, payment, the history of every change, the decisions and the comment
// history. For the event's staff only; anyone else, and any unknown id, gets 404.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CommentHistory, type CommentReply } from "~/components/review-comments";
import { DecisionButtons, DecisionStep, parseStep, stepAllowed, type DecisionReply } from "~/components/review-decisions";
import { AnswersBlock, GuardianBlock, HistoryBlock, ParticipantBlock, StatusBlock } from "~/components/review-detail";
import { ConsentBlock } from "~/components/legal-consent";
import { RouteError } from "~/components/route-error";
import { addComment, listComments, updateOwnComment } from "~/models/comment.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import { idFrom } from "~/lib/ids";
import { backSearchOf, detailAddress, detailSearch } from "~/lib/review-filter";
import { rowAnchor } from "~/lib/row-anchors";
import { randomToken } from "~/services/tokens.server";
import { consentOfRegistration } from "~/models/legal.server";
import { getRegistrationDetail, registrationEventId } from "~/models/review-detail.server";
import { nextInLineFor, noPlaceFor } from "~/models/review.server";
import { commentSchema } from "~/schemas/comment";
import { handleDecisionForm } from "~/services/decision-form.server";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { NOT_FOUND_TEXT, requireEventCapability } from "~/services/permissions.server";

/** Scripts here: decisions in a dialog and without a full reload (docs/decisions/0003). */
export const handle = { hydrate: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.participant.firstName} ${data.participant.lastName} – Anmeldung – Lagerfeuer` : "Anmeldung – Lagerfeuer" },
];

/** The guard: signed out → /login; unknown registration, or not staff of its event → 404. */
async function guard(request: Request, param: string | undefined) {
  const id = idFrom(param) ?? 0;
  const eventId = registrationEventId(id);
  const access = await requireEventCapability(request, eventId ?? undefined, "viewDetails", "not-found");
  return { id, ...access };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { id, user, may, event } = await guard(request, params.registrationID);
  const detail = getRegistrationDetail(id);
  if (!detail) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  const url = new URL(request.url);
  const comments = listComments(detail.participant.id, event.id, user.id);
  const editing = idFrom(url.searchParams.get("bearbeiten"));
  const asked = parseStep(url.searchParams);
  const r = detail.registration;
  const step =
    asked && asked.registrationId === id && stepAllowed(asked, r, may)
      ? { intent: asked.intent, registrationId: id, name: `${detail.participant.firstName} ${detail.participant.lastName}`, ...noPlaceFor(event, asked.intent, r, may), ...nextInLineFor(event, asked.intent, r) }
      : null;
  return json(
    {
      ...detail,
      comments,
      // The new comment's form is sent once, however often it is submitted.
      commentKey: randomToken(),
      consent: consentOfRegistration(id),
      editingId: may.comment && comments.some((c) => c.id === editing && c.mine) ? editing : null,
      step,
      backSearch: backSearchOf(url.searchParams),
      may: { decideRegistrations: may.decideRegistrations, confirmPayments: may.confirmPayments, viewSepa: may.viewSepa, comment: may.comment },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  // Checked before the body is read and again once it is in: a right taken meanwhile counts.
  await guard(request, params.registrationID);
  const peek = await readForm(request);
  const { id, user, may, event } = await guard(request, params.registrationID);
  const pageUrl = detailAddress(id, backSearchOf(new URL(request.url).searchParams));
  const intent = String(peek.get("intent") ?? "");
  if (!intent.startsWith("comment-")) return handleDecisionForm(request, event.id, pageUrl, peek);

  if (!may.comment) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  const parsed = commentSchema.safeParse(Object.fromEntries(peek));
  if (!parsed.success) {
    const commentId = idFrom(peek.get("commentId"));
    return json<CommentReply>(
      {
        comment: {
          intent: intent === "comment-edit" ? "comment-edit" : "comment-add",
          commentId,
          errors: parsed.error.issues.map((i) => i.message),
          text: String(peek.get("text") ?? ""),
        },
      },
      { status: 400 },
    );
  }
  const detail = getRegistrationDetail(id);
  if (!detail) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  const participantId = detail.participant.id;
  if (parsed.data.intent === "comment-add") {
    addComment({ participantId, eventId: event.id, authorId: user.id, text: parsed.data.text }, { key: submissionKeyOf(peek), page: pageUrl });
    return redirectWithFlash(`${pageUrl}#comments-title`, { kind: "success", title: "Kommentar gespeichert" }, { request });
  }
  const changed = updateOwnComment({ commentId: parsed.data.commentId, participantId, eventId: event.id, authorId: user.id, text: parsed.data.text });
  if (!changed) throw new Response("Du kannst nur deine eigenen Kommentare bearbeiten.", { status: 403 });
  return redirectWithFlash(`${pageUrl}#kommentar-${parsed.data.commentId}`, { kind: "success", title: "Kommentar gespeichert" }, { request });
}

export default function RegistrationDetail() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<DecisionReply & CommentReply>();
  const { registration: r, participant, step, may } = data;
  const pageUrl = detailAddress(r.id, data.backSearch);
  const listUrl = `/freizeit/participants/${r.eventId}${data.backSearch}#${rowAnchor(r.id)}`;
  const decision = reply?.decision;
  const stepError = decision && step ? { reason: decision.fieldErrors?.reason, message: decision.message } : null;
  return (
    <article className="review registration-detail">
      <h1>
        {participant.firstName} {participant.lastName}
      </h1>
      <p className="hint">Anmeldung für {data.event.title}</p>

      {step ? <DecisionStep step={step} actionUrl={detailAddress(r.id, data.backSearch, { entscheiden: step.intent, anmeldung: String(r.id) })} cancelUrl={pageUrl} error={stepError} /> : null}
      <DecisionButtons
        registration={{ ...r, firstName: participant.firstName, lastName: participant.lastName }}
        may={may}
        actionUrl={pageUrl}
        pageSearch={detailSearch(data.backSearch)}
        error={decision && !step ? (decision.message ?? decision.fieldErrors?.reason?.[0] ?? null) : null}
      />

      <div className="detail-grid">
        <StatusBlock
          registration={r}
          reference={data.reference}
          sepaHref={may.viewSepa && r.sepaMandateId ? `/freizeit/${r.eventId}/sepa/${r.sepaMandateId}` : null}
          listHref={`/freizeit/participants/${r.eventId}`}
        />
        <ParticipantBlock participant={participant} />
        <GuardianBlock guardian={data.guardian} account={data.account} />
        <AnswersBlock answers={r} />
        <ConsentBlock consent={data.consent} />
      </div>
      <HistoryBlock history={data.history} createdAt={r.createdAt} />
      <CommentHistory comments={data.comments} submissionKey={data.commentKey} canWrite={may.comment} editingId={data.editingId} pageUrl={pageUrl} reply={reply?.comment} />

      <p className="actions">
        <a href={listUrl} className="button secondary">
          Zurück
        </a>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
