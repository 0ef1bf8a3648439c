// A place offered from the waiting list: 'Platz annehmen' or 'Platz freigeben', each a page with
// one button (the mail's links lead here; a GET changes nothing).
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { formatDate, formatTime } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import type { OfferAnswer } from "~/lib/registration-machine";
import { answerOffer, getOffer } from "~/models/waiting-list.server";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { idFrom } from "~/lib/ids";

const ANSWERS: Record<string, OfferAnswer> = { annehmen: "accept", freigeben: "decline" };
const NOT_FOUND = "Dieses Angebot gibt es nicht.";

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.answer === "freigeben" ? "Platz freigeben" : "Platz annehmen"} – Lagerfeuer` },
];

function answerOf(param: string | undefined) {
  const answer = ANSWERS[param ?? ""];
  if (!answer) throw new Response(NOT_FOUND, { status: 404 });
  return answer;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const answer = answerOf(params.answer);
  const offer = getOffer(idFrom(params.registrationId) ?? 0, user);
  if (!offer) throw new Response(NOT_FOUND, { status: 404 });
  const { row } = offer;
  return json({
    answer,
    open: offer.open,
    state: offer.state,
    child: `${row.childFirstName} ${row.childLastName}`,
    eventId: row.eventId,
    eventTitle: row.eventTitle,
    expiresAt: row.offerExpiresAt ? new Date(row.offerExpiresAt).getTime() : null,
    cost: offer.cost,
    gone: offer.gone,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const answer = answerOf(params.answer);
  await readForm(request); // nothing in it but the button; read within the limits all the same
  // Asked again once the body is in: an account deactivated meanwhile takes no place.
  const user = await requireUser(request);
  const outcome = answerOffer(idFrom(params.registrationId) ?? 0, user, answer);
  if (!outcome.ok) {
    if (outcome.status === 404) throw new Response(NOT_FOUND, { status: 404 });
    return json({ message: outcome.message }, { status: outcome.status });
  }
  // The same answer given again (a double tap) says what became of the offer.
  return redirectWithFlash(
    `/freizeit/${outcome.eventId}`,
    answer === "accept"
      ? { kind: "success", title: "Platz angenommen", message: outcome.repeated ?? "Der Platz gehört jetzt euch. Wir haben dir eine E-Mail geschickt; falls etwas zu zahlen ist, steht darin, wie. Die Leitung prüft die Anmeldung noch; ihre Entscheidung bekommst du per E-Mail." }
      : { kind: "info", title: "Platz freigegeben", message: outcome.repeated ?? (outcome.passedOn ? "Der Platz geht an das nächste Kind auf der Warteliste." : "Der Platz ist wieder frei.") },
  );
}

/** What taking the place costs, and how it is paid (the enrolment's way of paying). */
function costText({ amountCents, discounted, paymentMethod }: { amountCents: number; discounted: boolean; paymentMethod: "transfer" | "sepa" }) {
  const price = `Der Platz kostet ${formatEuro(amountCents)}${discounted ? " (mit Geschwisterrabatt)" : ""}.`;
  return paymentMethod === "sepa"
    ? `${price} Der Betrag wird per SEPA-Lastschrift von dem angegebenen Konto eingezogen.`
    : `${price} Nach dem Annehmen bekommst du eine E-Mail mit Konto, Betrag, Verwendungszweck und GiroCode für die Überweisung.`;
}

export default function OfferPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const accept = data.answer === "accept";
  const title = accept ? "Platz annehmen" : "Platz freigeben";
  return (
    <section className="panel narrow" aria-labelledby="offer-title">
      <h1 id="offer-title">{title}</h1>
      <p>
        <strong>{data.child}</strong> – {data.eventTitle}
      </p>
      {actionData?.message ? (
        <FormAlert alert={{ title: "Das hat nicht geklappt", message: actionData.message }} />
      ) : data.open && data.expiresAt ? (
        <>
          <p>
            Der Platz ist für euch reserviert bis {formatDate(data.expiresAt)}, {formatTime(data.expiresAt)}.
            {accept
              ? " Mit dem Annehmen bekommt dein Kind den Platz; die Leitung prüft die Anmeldung danach, und ihre Entscheidung bekommst du per E-Mail."
              : " Wenn du ihn freigibst, geben wir ihn weiter. Die Anmeldung ist damit storniert und dein Kind auch nicht mehr auf der Warteliste; das lässt sich nicht rückgängig machen."}
          </p>
          {accept && data.cost ? <p>{costText(data.cost)}</p> : null}
          <Form method="post">
            <button type="submit" className={accept ? undefined : "secondary"}>
              {title}
            </button>
          </Form>
        </>
      ) : (
        <p>{data.gone}</p>
      )}
      <p>
        <a href={`/freizeit/${data.eventId}`}>Zur Veranstaltung</a>
      </p>
    </section>
  );
}
