// /enroll/{eventId}: the enrolment form (spec part 2, §2.1). The buttons' work is done by
// services/enrollment-form.server.ts; a successful enrolment leads to its confirmation page.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Box } from "~/components/enrollment/box";
import { EnrolmentTotal } from "~/components/enrollment/total";
import { ErrorSummary } from "~/components/enrollment/error-summary";
import { TextArea, type Errors } from "~/components/enrollment/fields";
import { PaymentChoice, SepaSection, TermsConsent } from "~/components/enrollment/payment";
import { RouteError } from "~/components/route-error";
import { joinNames } from "~/lib/names";
import { useHydrated } from "~/components/forms";
import { formatIsoDate } from "~/lib/dates";
import { childAnswers, defaultGuardian, nextSavedChild, typedGuardians, valueAt, type Payload } from "~/lib/enrollment-payload";
import { formatEuro } from "~/lib/event-rules";
import { getEnrolmentContext, NOT_FOUND, takesNoEnrolment } from "~/models/enrollment.server";
import { cachedLegalLinks } from "~/models/legal.server";
import { answerEnrolmentForm, type FormState } from "~/services/enrollment-form.server";
import { settings } from "~/services/env.server";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { parkIfSessionRanOut, takeParkedForm } from "~/services/parked-forms.server";
import type { SessionUser } from "~/models/user.server";
import { requireUser } from "~/services/session.server";
import { randomToken } from "~/services/tokens.server";
import { idFrom } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "Anmeldeformular – Lagerfeuer" }];
// With JavaScript, adding, removing and picking answer without a full page load.
export const handle = { hydrate: true };


type EnrolmentContext = NonNullable<ReturnType<typeof getEnrolmentContext>>;

async function contextFor(request: Request, param: string | undefined) {
  const user = await requireUser(request);
  const id = idFrom(param);
  const context = id ? getEnrolmentContext(id, user) : null;
  if (id && !context && takesNoEnrolment(id, user)) {
    throw await redirectWithFlash(`/freizeit/${id}`, {
      kind: "info",
      title: "Keine Anmeldung nötig",
      message: "Für diese Veranstaltung braucht es keine Anmeldung. Alles Weitere steht in der Beschreibung.",
    });
  }
  if (!id || !context) throw new Response(NOT_FOUND, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return { user, id, context };
}

/** The form this browser sent after its session ran out, filled in again (decision 0020). */
async function parkedAnswer(request: Request, user: SessionUser, id: number, context: EnrolmentContext) {
  const parked = await takeParkedForm(request, user.id, `/enroll/${id}`);
  if (!parked) return null;
  // Neither sent nor checked yet: the form as typed, with the choices' fields ('Auswahl übernehmen').
  parked.formData.set("intent", "restore");
  const answer = await answerEnrolmentForm(parked.formData, id, user, context);
  return { state: "state" in answer ? answer.state : null, clearCookie: parked.clearCookie };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, id, context } = await contextFor(request, params.eventId);
  const parked = await parkedAnswer(request, user, id, context);
  // The registrations' states are said as names (alreadyEnrolled), not sent as they are.
  const { rules: _rules, registeredStates: _states, ...shown } = context;
  const firstChild = nextSavedChild(context.children, context.registered);
  const first = firstChild ? String(firstChild.id) : "neu";
  const { links, bank } = settings();
  const legal = cachedLegalLinks();
  return json({
    ...shown,
    event: { ...context.event, startsAt: undefined },
    accountHolder: bank.accountHolder,
    creditorId: bank.creditorId,
    // The PDFs uploaded in the admin panel; until there are any, the association's pages.
    termsUrl: legal.participationTerms ?? links.downloads,
    privacyUrl: legal.privacy ?? links.privacy,
    defaults: {
      submissionKey: randomToken(),
      boxes: [
        {
          participant: first,
          answersFor: first,
          saveKey: randomToken(),
          guardian: defaultGuardian(firstChild, context.guardians.map((g) => g.id)),
          ...childAnswers(firstChild),
        },
      ],
      paymentMethod: context.mandate ? "sepa" : undefined,
    } as Payload,
    // Said above the form (parents' walkthrough: Back after enrolling showed the form for the next
    // child with nothing saying the first was enrolled).
    alreadyEnrolled: enrolledHere(context),
    restored: parked?.state ?? null,
  }, parked ? { headers: { "Set-Cookie": parked.clearCookie } } : {});
}

/**
 * The account's children registered here, by name: those still in (placed, open, waiting) and
 * those no longer, with why (the form does not offer them again; parents' walkthrough: a child
 * whose offer ran out was missing from the choice without a word, and was typed in again as new).
 */
function enrolledHere({ children, registeredStates }: { children: { id: number; firstName: string; lastName: string }[]; registeredStates: { participantId: number; applicationStatus: string }[] }) {
  const named = (states: string[]) =>
    children.flatMap((child) => {
      const r = registeredStates.find((state) => state.participantId === child.id);
      if (!r || !states.includes(r.applicationStatus)) return [];
      const why = r.applicationStatus === "rejected" ? " (abgelehnt)" : r.applicationStatus === "cancelled" ? " (storniert)" : "";
      return [`${child.firstName} ${child.lastName}${why}`];
    });
  return { in: named(["open", "accepted"]), out: named(["rejected", "cancelled"]) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // A session that ran out while the form was filled in: the form is kept for the login.
  const eventId = idFrom(params.eventId);
  const parked = eventId ? await parkIfSessionRanOut(request, `/enroll/${eventId}`) : null;
  if (parked) throw parked;
  const { id, context } = await contextFor(request, params.eventId);
  const formData = await readForm(request);
  // Asked again once the body is in (it may take minutes): an account deactivated or deleted
  // meanwhile enrols no one, and the enrolment sees the role it has now (a staff-only event is
  // checked again in its transaction). One read of the session's row (decision 0017 counts it).
  const user = await requireUser(request);
  const answer = await answerEnrolmentForm(formData, id, user, context);
  if ("redirectTo" in answer) return redirect(answer.redirectTo);
  return json(answer.state, { status: answer.status });
}

function placesNote(left: number, late: boolean) {
  const places = left === 1 ? "ist nur noch 1 Platz" : `sind nur noch ${left} Plätze`;
  if (late) {
    return left === 0
      ? "Der Anmeldeschluss ist vorbei und alle Plätze sind vergeben. Eine Anmeldung ist nicht mehr möglich."
      : `Der Anmeldeschluss ist vorbei. Es ${places} frei; eine Warteliste gibt es jetzt nicht mehr.`;
  }
  return left === 0
    ? "Alle Plätze sind vergeben. Deine Anmeldung kommt auf die Warteliste, in der Reihenfolge des Eingangs."
    : `Es ${places} frei. Wer darüber hinaus angemeldet wird, kommt auf die Warteliste.`;
}

export function ErrorBoundary() {
  return <RouteError title="Anmeldeformular" />;
}

export default function Enroll() {
  const data = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>() as FormState | undefined;
  const answer = answered ?? (data.restored as FormState | null) ?? undefined;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const values = (answer?.payload ?? data.defaults) as Payload;
  // With JavaScript a field's message goes as soon as the field changes (the parent is fixing it).
  const [changed, setChanged] = useState<string[]>([]);
  const sent = (answer?.errors ?? {}) as Errors;
  const errors = changed.length ? (Object.fromEntries(Object.entries(sent).filter(([path]) => !changed.includes(path))) as Errors) : sent;
  const boxes = Array.isArray(values.boxes) && values.boxes.length ? values.boxes : [{}];
  const event = data.event;
  const locked = data.mandate !== null;
  const action = `/enroll/${event.id}`;
  const [method, setMethod] = useState(valueAt(values, "paymentMethod"));
  const [typed, setTyped] = useState(() => typedGuardians(boxes));
  useEffect(() => {
    setMethod(valueAt(values, "paymentMethod"));
    setTyped(typedGuardians(boxes));
    setChanged([]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new answer of the server
  }, [answer?.stamp]);
  // Without JavaScript a button's formAction (#teilnehmer-2, #zahlung) opens the answer at its box;
  // with it, the box it names gets the focus once the answer is there (unless messages take it).
  const comeBackTo = useRef<string | null>(null);
  const onClickCapture = (e: MouseEvent<HTMLFormElement>) => {
    const button = (e.target as HTMLElement).closest("button[formaction]");
    comeBackTo.current = button ? new URL(button.getAttribute("formaction") ?? "", window.location.href).hash.slice(1) || null : null;
  };
  useEffect(() => {
    if (!answer || Object.keys(answer.errors).length > 0 || !comeBackTo.current) return;
    document.getElementById(comeBackTo.current)?.focus();
    comeBackTo.current = null;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new answer of the server
  }, [answer?.stamp]);
  // A guardian typed into one box is offered in the others at once.
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement;
    const name = target.name ?? "";
    if (Object.prototype.hasOwnProperty.call(sent, name) && !changed.includes(name)) setChanged((list) => [...list, name]);
    if (!/\.(guardian|newGuardian\.firstName|newGuardian\.lastName)$/.test(target.name ?? "")) return;
    const form = new FormData(e.currentTarget);
    setTyped(
      typedGuardians(
        boxes.map((_, i) => ({
          guardian: form.get(`boxes[${i}].guardian`),
          newGuardian: { firstName: form.get(`boxes[${i}].newGuardian.firstName`), lastName: form.get(`boxes[${i}].newGuardian.lastName`) },
        })),
      ),
    );
  };

  if (event.started) {
    return (
      <section className="panel">
        <h1>Anmeldeformular: {event.title}</h1>
        <p>Diese Veranstaltung hat schon begonnen. Eine Anmeldung ist nicht mehr möglich.</p>
        <a href={`/freizeit/${event.id}`} className="button">
          Zur Veranstaltung
        </a>
      </section>
    );
  }
  const submitting = navigation.state === "submitting";
  return (
    <>
      <h1>Anmeldeformular: {event.title}</h1>
      <p>
        Ab {formatIsoDate(event.dateFrom)} · {formatEuro(event.priceCents)} pro Teilnehmer*in
        {event.siblingDiscountCents > 0 ? ` · Geschwisterrabatt: ${formatEuro(event.siblingDiscountCents)} weniger für jedes weitere Kind` : ""}
      </p>
      {data.restored && !answered ? (
        <p className="flash flash-info" role="note">
          Deine Angaben von vorhin sind wieder eingetragen. Die Anmeldung ist noch nicht gesendet: Bitte prüfe alles und klicke dann auf
          „Verbindlich Anmelden“.
        </p>
      ) : null}
      {data.alreadyEnrolled.in.length || data.alreadyEnrolled.out.length ? (
        <p className="flash flash-info" role="note">
          {data.alreadyEnrolled.in.length ? `Schon angemeldet: ${joinNames(data.alreadyEnrolled.in)}. ` : ""}
          {data.alreadyEnrolled.out.length
            ? `Nicht noch einmal anmelden kannst du hier: ${joinNames(data.alreadyEnrolled.out)}; bei Fragen wende dich an die Leitung. `
            : ""}
          Hier meldest du weitere Kinder an.
        </p>
      ) : null}
      {data.placesLeft !== null && data.placesLeft < boxes.length ? (
        <p className="flash flash-info" role="note">
          {placesNote(data.placesLeft, event.late)}
        </p>
      ) : null}
      {/* autoComplete off: a page opened again with Back starts from the server's answer, not with the
          browser's copy of the last form (parents' walkthrough: the consent and the payment came back
          ticked under the next child, and one tap enrolled it). Fields with their own token keep it. */}
      <Form method="post" action={action} key={answer?.stamp ?? "enroll"} noValidate autoComplete="off" className="enroll-form" onInput={onInput} onChange={onInput} onClickCapture={onClickCapture}>
        {/* The form's default button comes first: Enter in any field enrols (or shows the messages), never another button. */}
        <button type="submit" name="intent" value="submit" className="default-submit" tabIndex={-1} aria-hidden="true" disabled={submitting}>
          Verbindlich Anmelden
        </button>
        <ErrorSummary errors={errors} stamp={answer && Object.keys(errors).length ? answer.stamp : null} />
        <input type="hidden" name="submissionKey" value={valueAt(values, "submissionKey") || (data.defaults.submissionKey as string)} />
        {boxes.map((_, index) => (
          <Box
            key={index}
            index={index}
            count={boxes.length}
            data={data}
            values={values}
            errors={errors}
            typed={typed}
            action={action}
            saved={answered?.saved?.index === index ? answered.saved.text : undefined}
          />
        ))}
        {boxes.length < 10 ? (
          <p>
            <button type="submit" name="intent" value="add" formAction={`${action}#teilnehmer-${boxes.length + 1}`} className="secondary" formNoValidate>
              Weitere*n Teilnehmer*in hinzufügen
            </button>
          </p>
        ) : null}
        <TextArea name="referral" label="Wie hast du von uns erfahren?" values={values} errors={errors} max={300} rows={2} />
        <PaymentChoice values={values} errors={errors} locked={locked} action={action} onChange={setMethod} />
        {/* With JavaScript the section stays in the page while hidden, so switching back keeps what was typed. */}
        {locked || hydrated || valueAt(values, "paymentMethod") === "sepa" ? (
          <div hidden={!locked && (hydrated ? method : valueAt(values, "paymentMethod")) !== "sepa"}>
            <SepaSection values={values} errors={errors} mandate={data.mandate} accountHolder={data.accountHolder} creditorId={data.creditorId} privacyUrl={data.privacyUrl} />
          </div>
        ) : null}
        <TermsConsent values={values} errors={errors} termsUrl={data.termsUrl} privacyUrl={data.privacyUrl} />
        <EnrolmentTotal event={event} placesHeld={data.placesHeld} boxes={boxes.length} placesLeft={data.placesLeft} />
        <div className="actions">
          <button type="submit" name="intent" value="submit" disabled={submitting}>
            Verbindlich Anmelden
          </button>
          <a href="/" className="button secondary">
            Abbrechen
          </a>
        </div>
      </Form>
    </>
  );
}
