import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { EventPicture } from "~/components/event-tile";
import { HelperButton } from "~/components/helper-apply-button";
import { RegistrationStatus } from "~/components/registration-status";
import { berlinToday, formatClock, formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { enrolmentLinks } from "~/models/enrollment-confirmation.server";
import { applyAsHelper, deleteEvent, getEventAccess, getEventPage } from "~/models/event.server";
import { cancellationAudience } from "~/models/event-cancellation.server";
import { cancellationNotice } from "~/lib/cancellation-notice";
import { db } from "~/services/db.server";
import { redirectWithFlash } from "~/services/flash.server";
import { getUser, requireUser } from "~/services/session.server";
import { readForm } from "~/services/form.server";
import { idFrom } from "~/lib/ids";
import { confirmationLinkText } from "~/lib/names";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.event.title} – Lagerfeuer` : "Veranstaltung – Lagerfeuer" },
  { name: "description", content: data ? data.event.description.slice(0, 160) : "" },
];

function eventId(param: string | undefined) {
  const id = idFrom(param);
  if (!id) throw new Response("Nicht gefunden", { status: 404 });
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const event = getEventPage(eventId(params.id), user);
  if (!event) throw new Response("Nicht gefunden", { status: 404 });
  const { startsAt: _startsAt, ...shown } = event;
  const confirmDelete = event.canManage && new URL(request.url).searchParams.has("loeschen");
  return json({
    // The event's lead persons are in charge already: they are offered no helper application.
    event: { ...shown, mayApplyAsHelper: !event.isOwner },
    signedIn: user !== null,
    enrolments: user ? enrolmentLinks(event.id, user.id) : [],
    // After the deadline a full event takes no one (DECISIONS.md, registration deadline).
    closed: event.placesLeft === 0 && event.registrationDeadline !== null && berlinToday() > event.registrationDeadline,
    confirmDelete,
    // Whom the dialog's deletion would tell (it promised mails also when no one would get one).
    cancellation: confirmDelete && user ? cancellationAudience(db, event.id, user) : null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = eventId(params.id);
  if (!getEventAccess(id, await requireUser(request))) throw new Response("Nicht gefunden", { status: 404 });
  const intent = (await readForm(request)).get("intent");
  // Again once the body is in (it may take minutes): a right taken meanwhile counts.
  const user = await requireUser(request);
  const access = getEventAccess(id, user);
  if (!access) throw new Response("Nicht gefunden", { status: 404 });

  if (intent === "delete") {
    if (!access.canManage) throw new Response("Nicht gefunden", { status: 404 });
    const told = await deleteEvent(id, user);
    const cancelled = told ? ` Familien, Helfer*innen und Leitung bekommen eine Absage (${told === 1 ? "1 E-Mail" : `${told} E-Mails`}).` : "";
    return redirectWithFlash("/", { kind: "success", title: "Veranstaltung gelöscht", message: `„${access.title}“ wurde gelöscht.${cancelled}` });
  }
  if (intent === "apply-helper") {
    if (access.isOwner) return json({ error: "Du leitest diese Veranstaltung – als Leitung bist du schon dabei." }, { status: 409 });
    if (access.startsAt.getTime() <= Date.now()) {
      return json({ error: "Diese Veranstaltung hat schon begonnen." }, { status: 409 });
    }
    const status = applyAsHelper(id, user);
    // Only a hand-made post reaches here after a decision: the page shows no button then.
    if (status === "declined") return json({ error: "Deine Bewerbung wurde abgelehnt (Kein*e Helfer*in)." }, { status: 409 });
    if (status === "accepted") return json({ error: "Du bist schon Helfer*in dieser Veranstaltung." }, { status: 409 });
    return redirectWithFlash(`/freizeit/${id}`, {
      kind: "info",
      title: "Anmeldung durch einen Admin ausstehend",
      message: "Deine Bewerbung muss vor der Eintragung durch einen Administrator geprüft werden",
    });
  }
  return redirect(`/freizeit/${id}`);
}

function names(people: { firstName: string; lastName: string }[]) {
  return people.length ? people.map((p) => `${p.firstName} ${p.lastName}`).join(", ") : "–";
}

export default function EventDetail() {
  const { event, signedIn, enrolments, closed, confirmDelete, cancellation } = useLoaderData<typeof loader>();
  const refused = (useActionData() as { error?: string } | undefined)?.error;
  const dateTo = event.dateTo ?? event.dateFrom;
  return (
    <article className="event-detail">
      {event.pictureKey ? (
        <div className="detail-picture">
          <EventPicture pictureKey={event.pictureKey} sizes="(min-width: 64rem) 60rem, 100vw" eager />
        </div>
      ) : null}
      <h1>{event.title}</h1>
      <p className="description">{event.description}</p>

      <section aria-labelledby="info-title" className="panel">
        <h2 id="info-title">Informationen</h2>
        <dl className="facts">
          <dt>Anmeldeschluss</dt>
          <dd>{event.registrationDeadline ? formatIsoDate(event.registrationDeadline) : "–"}</dd>
          <dt>Datum und Uhrzeit</dt>
          <dd>
            {formatIsoDate(event.dateFrom)}, {formatClock(event.timeFrom)}
            {event.dateTo || event.timeTo ? ` bis ${formatIsoDate(dateTo)}${event.timeTo ? `, ${formatClock(event.timeTo)}` : ""}` : ""}
          </dd>
          <dt>Ort</dt>
          <dd>{event.location}</dd>
          <dt>Kosten</dt>
          <dd>{formatEuro(event.priceCents)}</dd>
          <dt>Geschwisterrabatt</dt>
          <dd>
            {event.siblingDiscount || (event.siblingDiscountCents > 0 ? "" : "–")}
            {event.siblingDiscountCents > 0 ? `${event.siblingDiscount ? " · " : ""}${formatEuro(event.siblingDiscountCents)} weniger für jedes weitere Kind` : ""}
          </dd>
          <dt>Mögliche Teilnehmer*innen</dt>
          <dd>{event.memberRules || "–"}</dd>
          <dt>Leitung</dt>
          <dd>{names(event.owners)}</dd>
          <dt>Helfer*innen</dt>
          <dd>{names(event.helpers)}</dd>
          {event.placesLeft !== null && !event.past ? (
            <>
              <dt>Freie Plätze</dt>
              <dd>{event.placesLeft > 0 ? event.placesLeft : closed ? "Keine – der Anmeldeschluss ist vorbei" : "Keine – neue Anmeldungen kommen auf die Warteliste"}</dd>
            </>
          ) : null}
        </dl>
        {event.past ? null : <p className="hint">Anmeldungen nach dem Anmeldeschluss werden weiterhin angenommen, solange Plätze frei sind.</p>}
        <p>
          <a href={`/freizeit/${event.id}/kalender.ics`} download>
            Termin in den Kalender übernehmen
          </a>
        </p>
      </section>

      {event.attachments.length > 0 ? (
        <section aria-labelledby="files-title" className="panel">
          <h2 id="files-title">Anhänge</h2>
          <ul className="attachment-links">
            {event.attachments.map((file) => (
              <li key={file.id}>
                <a href={`/uploads/attachments/${file.key}`} target="_blank" rel="noopener">
                  {file.displayName}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {signedIn ? (
        <section aria-labelledby="mine-title" className="panel">
          <h2 id="mine-title">Meine angemeldeten Teilnehmer*innen</h2>
          {event.myRegistrations.length === 0 ? (
            <p>Du hast für diese Veranstaltung noch niemanden angemeldet.</p>
          ) : (
            <ul className="my-registrations">
              {event.myRegistrations.map((r) => (
                <li key={r.id}>
                  <strong>
                    {r.firstName} {r.lastName}
                  </strong>{" "}
                  <RegistrationStatus registration={r} />
                </li>
              ))}
            </ul>
          )}
          {enrolments.map((e) => (
            <p key={e.id}>
              <a href={`/anmeldung/${e.id}`}>
                {enrolments.length === 1 ? "Anmeldebestätigung ansehen" : confirmationLinkText(e, event.myRegistrations)}
              </a>
            </p>
          ))}
        </section>
      ) : event.requiresApplication && !event.past && !closed ? (
        <p className="flash flash-info visitor-hint">
          <a href={`/login?redirectTo=/freizeit/${event.id}`}>Zum Anmelden bitte einloggen</a>
        </p>
      ) : null}

      {signedIn ? (
        <div className="actions event-actions">
          {event.requiresApplication ? (
            event.past || closed ? (
              <>
                <button type="button" disabled aria-describedby="enrol-closed">
                  Anmelden
                </button>
                <p id="enrol-closed" className="hint">
                  {event.ended ? "Die Veranstaltung ist vorbei." : event.past ? "Die Veranstaltung hat schon begonnen." : "Der Anmeldeschluss ist vorbei und alle Plätze sind vergeben."}
                </p>
              </>
            ) : (
              <a href={`/enroll/${event.id}`} className="button">
                Anmelden
              </a>
            )
          ) : null}
          <HelperButton event={event} refused={refused} />
        </div>
      ) : null}

      {signedIn && (event.canManage || event.may.sendEventMail || event.may.viewLists) ? (
        <section aria-labelledby="manage-title" className="panel event-manage">
          <h2 id="manage-title">Verwaltung</h2>
          <div className="actions">
            {event.may.viewLists ? (
              <>
                <a href={`/freizeit/participants/${event.id}`} className="button secondary">
                  Teilnehmer*innen-Liste
                </a>
                <a href={`/freizeit/helper/${event.id}`} className="button secondary">
                  Mitarbeiter*innen-Liste
                </a>
              </>
            ) : null}
            {event.may.sendEventMail ? (
              <a href={`/freizeit/sendEmails/${event.id}`} className="button secondary">
                E-Mail an alle
              </a>
            ) : null}
            {event.canManage ? (
              <a href={`/freizeit/edit/${event.id}`} className="button secondary">
                Bearbeiten
              </a>
            ) : null}
          </div>
          {event.canManage ? (
            <p className="event-manage-delete">
              <a href={`/freizeit/${event.id}?loeschen=1#loeschen`} className="button danger">
                Löschen
              </a>
            </p>
          ) : null}
        </section>
      ) : null}

      {confirmDelete ? (
        <section id="loeschen" className="panel danger-zone" aria-labelledby="delete-title" role="alertdialog" aria-describedby="delete-text">
          <h2 id="delete-title">Freizeit löschen</h2>
          <p id="delete-text">
            Sind Sie sicher, dass Sie diese Freizeit löschen möchten? Diese Aktion kann nicht rückgängig gemacht werden.
          </p>
          {cancellation ? <p>{cancellationNotice(cancellation)}</p> : null}
          <Form method="post" className="actions">
            <input type="hidden" name="intent" value="delete" />
            <button type="submit" className="danger">
              Löschen
            </button>
            <a href={`/freizeit/${event.id}`} className="button secondary">
              Abbrechen
            </a>
          </Form>
        </section>
      ) : null}

      <p>
        <a href="/" className="button secondary">
          Zurück zur Startseite
        </a>
      </p>
    </article>
  );
}
