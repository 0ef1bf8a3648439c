// SEPA-Detailseite (spec part 2 §2.8, issue 10 item 6): the mandate's holder and IBAN, the
// children it pays for, the amount to collect and the bulk payment confirmation. Only for those
// who may see SEPA data (admins, lead persons); everyone else gets 404.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { DecisionReply } from "~/components/review-decisions";
import { PaymentChildren } from "~/components/enrolment-payment";
import { RouteError } from "~/components/route-error";
import { formatAmount, formatTotal } from "~/lib/amount";
import { formatDate } from "~/lib/dates";
import { formatIban } from "~/lib/iban";
import { owes } from "~/lib/registration-machine";
import { getSepaDetail } from "~/models/review.server";
import { handleDecisionForm } from "~/services/decision-form.server";
import { settings } from "~/services/env.server";
import { NOT_FOUND_TEXT, requireEventCapability } from "~/services/permissions.server";
import { idFrom } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "SEPA-Detailseite – Lagerfeuer" }];

async function guard(request: Request, params: { id?: string; sepaId?: string }) {
  const access = await requireEventCapability(request, params.id, "viewSepa", "not-found");
  const detail = getSepaDetail(access.event.id, idFrom(params.sepaId) ?? 0);
  if (!detail) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  return { ...access, detail };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { event, may, detail } = await guard(request, params);
  return json(
    // Something left to debit: a free place owes nothing.
    // The children left to debit (a free place owes nothing): what the button confirms, and no other.
    { eventId: event.id, canConfirm: may.confirmPayments, creditorId: settings().bank.creditorId, owingIds: detail.children.filter(owes).map((c) => c.id), ...detail },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { event, detail } = await guard(request, params);
  return handleDecisionForm(request, event.id, `/freizeit/${event.id}/sepa/${detail.mandate.id}`);
}

export default function SepaDetail() {
  const { eventId, canConfirm, creditorId, mandate, children, amountCents, openCents, owingIds } = useLoaderData<typeof loader>();
  const refusal = useActionData<DecisionReply>()?.decision?.message;
  const holder = `${mandate.firstName} ${mandate.lastName}`;
  return (
    <article className="review sepa-detail">
      <h1>SEPA-Detailseite {holder}</h1>
      <section aria-labelledby="mandate-title" className="panel">
        <h2 id="mandate-title">Kontoinhaber*in</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{holder}</dd>
          <dt>Straße und Hausnummer</dt>
          <dd>{mandate.street}</dd>
          <dt>Postleitzahl und Ort</dt>
          <dd>
            {mandate.postalCode} {mandate.city}
          </dd>
          <dt>IBAN</dt>
          <dd className="iban">{formatIban(mandate.iban)}</dd>
          {/* What the debit in the bank's program needs besides the account. */}
          <dt>Mandatsreferenz</dt>
          <dd>{mandate.reference}</dd>
          <dt>Mandat erteilt am</dt>
          <dd>{formatDate(new Date(mandate.givenOn))}</dd>
          <dt>Gläubiger-Identifikationsnummer</dt>
          <dd>{creditorId}</dd>
        </dl>
      </section>

      <section aria-labelledby="children-title" className="panel">
        <h2 id="children-title">Angemeldete Teilnehmer*innen</h2>
        {children.length === 0 ? (
          <p>Keine Teilnehmer*innen mit Platz.</p>
        ) : (
          <PaymentChildren rows={children} />
        )}
        <p className="total">
          {/* No child with an amount stored (places not yet given): '–', not '0,00 €'. */}
          Einzuziehender Betrag: <strong>{formatTotal(children.map((c) => c.amountCents))}</strong>
          {openCents !== amountCents ? <span> (davon offen: {formatAmount(openCents)})</span> : null}
        </p>
        {refusal ? (
          <p role="alert" className="field-errors">
            {refusal}
          </p>
        ) : null}
        {canConfirm && owingIds.length > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="confirm-mandate" />
            <input type="hidden" name="sepaMandateId" value={mandate.id} />
            {owingIds.map((id) => (
              <input key={id} type="hidden" name="registrationIds" value={id} />
            ))}
            <button type="submit">Bezahlung bestätigen</button>
          </Form>
        ) : null}
      </section>

      <p className="actions">
        <a href={`/freizeit/participants/${eventId}`} className="button secondary">
          Zurück zur Teilnehmer*innen-Liste
        </a>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
