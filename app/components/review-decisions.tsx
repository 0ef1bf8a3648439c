// The leaders' decision buttons on the participant list and the registration detail (spec part 2
// §4, issue 10 item 3). Plain forms that post to the page's own action; a decision that needs a
// reason or a confirmation first leads (GET) to a step with the form, which JavaScript turns into
// a modal <dialog>.
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ADD_PLACE, allowedDecisions, isAllowed, NO_FREE_PLACE, REASON_MAX, type Decision, type RegistrationFacts } from "~/lib/registration-machine";
import { rowAnchor } from "~/lib/row-anchors";
import { ConfirmActions, ConfirmDialog, STEP_ANCHOR, useStepLink } from "./confirm-dialog";
import { ErrorList } from "./forms";
import { idFrom } from "~/lib/ids";

export const DECISION_LABELS: Record<Decision, string> = {
  accept: "Annehmen",
  reject: "Ablehnen",
  cancel: "Anmeldung stornieren",
  "revoke-rejection": "Ablehnung aufheben",
  "move-up": "Nachrücken",
  "confirm-payment": "Bezahlung bestätigen",
  "revoke-payment": "Bezahlung widerrufen",
};

/**
 * Decisions that go through a step of their own (a reason, a note or a confirmation) before the
 * POST. Accepting too: it takes an optional note to the parents (DECISIONS.md), and its mail
 * cannot be taken back, so a stray tap on a phone sends nothing.
 */
export const STEP_DECISIONS = ["accept", "reject", "cancel", "revoke-rejection", "move-up"] as const;
export type StepDecision = (typeof STEP_DECISIONS)[number];

const PAYMENT: readonly Decision[] = ["confirm-payment", "revoke-payment"];

export type DecisionRights = { decideRegistrations: boolean; confirmPayments: boolean };

/** The decisions a person sees for a registration: what its state allows and their rights. */
export function visibleDecisions(facts: RegistrationFacts, may: DecisionRights): Decision[] {
  return allowedDecisions(facts).filter((d) => (PAYMENT.includes(d) ? may.confirmPayments : may.decideRegistrations));
}

/** What the action answers when a decision is refused (the lead's decision-form handler). */
export type DecisionReply = {
  decision?: {
    intent: string;
    registrationId: number | null;
    fieldErrors?: { reason?: string[] };
    message?: string;
    attempt?: number;
  };
};

/** `?entscheiden=reject&anmeldung=12` → the step to show, when it is one. */
export function parseStep(params: URLSearchParams): { intent: StepDecision; registrationId: number } | null {
  const intent = params.get("entscheiden");
  const registrationId = idFrom(params.get("anmeldung"));
  if (!(STEP_DECISIONS as readonly string[]).includes(intent ?? "")) return null;
  if (!registrationId) return null;
  return { intent: intent as StepDecision, registrationId };
}

/** Shows the step only for a decision the person may make on the registration as it is now. */
export function stepAllowed(step: { intent: StepDecision }, facts: RegistrationFacts, may: DecisionRights) {
  return may.decideRegistrations && isAllowed(step.intent, facts);
}

/** The page's address with the step's parameters added. */
export function stepHref(pageSearch: string, intent: StepDecision, registrationId: number) {
  const params = new URLSearchParams(pageSearch);
  params.set("entscheiden", intent);
  params.set("anmeldung", String(registrationId));
  return `?${params.toString()}#${STEP_ANCHOR}`;
}

type Props = {
  registration: RegistrationFacts & { id: number; firstName: string; lastName: string };
  may: DecisionRights;
  /** Where the direct decisions post (the page without a step). */
  actionUrl: string;
  /** The page's current search, kept in the step's link. */
  pageSearch: string;
  /** The refusal of the last POST for this registration. */
  error?: string | null;
};

/** The way forward first (accept, move up, payment), the refusals last. */
const ORDER: readonly Decision[] = ["accept", "move-up", "confirm-payment", "revoke-payment", "revoke-rejection", "cancel", "reject"];

function buttonKind(decision: Decision, waiting: boolean) {
  if (decision === "accept") return "";
  // On the waiting list moving up is the usual step; declining stays possible, but quietly.
  if ((decision === "reject" && !waiting) || decision === "cancel") return "danger";
  return "secondary";
}

/** A row's link to its decision step (useStepLink). */
function StepLink({ href, ...props }: Omit<Parameters<typeof Link>[0], "to" | "onClick" | "preventScrollReset"> & { href: string }) {
  return <Link {...useStepLink(href)} preventScrollReset {...props} />;
}

export function DecisionButtons({ registration, may, actionUrl, pageSearch, error }: Props) {
  const decisions = [...visibleDecisions(registration, may)].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  if (decisions.length === 0 && !error) return null;
  const name = `${registration.firstName} ${registration.lastName}`;
  const waiting = registration.waitingListPosition !== null;
  return (
    <div className="decisions">
      {decisions.map((decision) =>
        (STEP_DECISIONS as readonly string[]).includes(decision) ? (
          <StepLink
            key={decision}
            href={stepHref(pageSearch, decision as StepDecision, registration.id)}
            className={`button small ${buttonKind(decision, waiting)}`}
            aria-label={`${DECISION_LABELS[decision]}: ${name}`}
          >
            {DECISION_LABELS[decision]}
          </StepLink>
        ) : (
          <Form key={decision} method="post" action={`${actionUrl}#${rowAnchor(registration.id)}`} className="inline-form" preventScrollReset>
            <input type="hidden" name="intent" value={decision} />
            <input type="hidden" name="registrationId" value={registration.id} />
            <button type="submit" className={`small ${buttonKind(decision, waiting)}`} aria-label={`${DECISION_LABELS[decision]}: ${name}`}>
              {DECISION_LABELS[decision]}
            </button>
          </Form>
        ),
      )}
      {error ? (
        <p role="alert" className="field-errors decision-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type StepText = {
  title: string;
  text: (name: string) => string;
  reason: "required" | "optional" | null;
  /** The field's label and hint when it is no reason (accepting takes a note). */
  field?: { label: string; hint: string };
};

const STEP_TEXT: Record<StepDecision, StepText> = {
  accept: {
    title: "Anmeldung annehmen",
    text: (n) => `Die Anmeldung von ${n} wird bestätigt. Die Eltern bekommen eine E-Mail.`,
    reason: "optional",
    field: { label: "Notiz an die Eltern (optional)", hint: "Die Notiz steht in der E-Mail an die Eltern." },
  },
  reject: { title: "Anmeldung ablehnen", text: (n) => `Die Anmeldung von ${n} wird abgelehnt.`, reason: "required" },
  cancel: { title: "Anmeldung stornieren", text: (n) => `Die bestätigte Anmeldung von ${n} wird storniert.`, reason: "required" },
  "revoke-rejection": {
    title: "Ablehnung aufheben",
    text: (n) => `Soll die Ablehnung von ${n} wirklich aufgehoben werden? Die Anmeldung ist dann wieder offen (oder kommt auf die Warteliste, wenn kein Platz frei ist).`,
    reason: null,
  },
  "move-up": { title: "Nachrücken", text: (n) => `${n} rückt von der Warteliste nach und bekommt einen Platz.`, reason: "optional" },
};

type StepProps = {
  step: { intent: StepDecision; registrationId: number; name: string; nextInLine?: string; noPlace?: { places: number; placesThen: number; addPlace: boolean } };
  /** The step's own address: a refused POST shows the step again with its errors. */
  actionUrl: string;
  cancelUrl: string;
  error?: { reason?: string[]; message?: string } | null;
};

/**
 * A step's reason or note with its message and the step's other refusal. A refused step: the field
 * with its message takes the focus, so that a screen reader says what is missing. Without
 * JavaScript the form posts to the field's anchor: the answer opens there, and the browser focuses
 * it (the step's own anchor took the focus).
 */
export function StepReason({ id, label, hint, required, error }: { id: string; label: string; hint: string | null; required: boolean; error: StepProps["error"] }) {
  const errors = error?.reason ?? [];
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (errors.length > 0) field.current?.focus();
  }, [error]); // eslint-disable-line react-hooks/exhaustive-deps -- each new answer
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {hint ? <p className="hint">{hint}</p> : null}
        <textarea
          ref={field}
          id={id}
          name="reason"
          rows={4}
          maxLength={REASON_MAX}
          required={required}
          autoFocus
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={errors.length ? `${id}-error` : undefined}
        />
        <ErrorList id={`${id}-error`} errors={errors} />
      </div>
      <StepRefusal error={error} />
    </>
  );
}

/** The step's refusal that is not the field's own message. */
export function StepRefusal({ error }: { error: StepProps["error"] }) {
  return error?.message && !(error.reason ?? []).includes(error.message) ? (
    <p role="alert" className="field-errors">
      {error.message}
    </p>
  ) : null;
}

/** The reason or confirmation step: a section without JavaScript, a modal dialog with it. */
export function DecisionStep({ step, actionUrl, cancelUrl, error }: StepProps) {
  const texts = STEP_TEXT[step.intent];
  const reasonId = `reason-${step.registrationId}`;
  if (step.noPlace && !step.noPlace.addPlace) {
    // Said before anything is sent: the action would refuse it the same way.
    return (
      <ConfirmDialog title={texts.title} cancelUrl={cancelUrl} stepKey={`${step.intent}-${step.registrationId}`}>
        <p>{step.name} kann jetzt nicht nachrücken.</p>
        <p role="alert" className="field-errors">
          {NO_FREE_PLACE}
        </p>
        <div className="actions">
          <Link to={cancelUrl} className="button secondary" preventScrollReset>
            Abbrechen
          </Link>
        </div>
      </ConfirmDialog>
    );
  }
  // A full camp: moving up by hand makes one more place for this child (every freed place goes to
  // the first in line at once, so none is ever free for a choice of the leaders).
  const extra = step.noPlace;
  return (
    <ConfirmDialog title={texts.title} cancelUrl={cancelUrl} stepKey={`${step.intent}-${step.registrationId}`}>
      <p>
        {extra
          ? `${extra.places === 1 ? "Der einzige Platz ist" : `Alle ${extra.places} Plätze sind`} vergeben. ${step.name} rückt trotzdem von der Warteliste nach und bekommt einen zusätzlichen Platz: Die Veranstaltung hat dann ${extra.placesThen} Plätze. Für alle anderen auf der Warteliste bleibt es, wie es ist.`
          : texts.text(step.name)}
      </p>
      {step.nextInLine ? <p>Der Platz wird dann {step.nextInLine} angeboten, dem ersten Kind auf der Warteliste. Die Familie bekommt dazu eine E-Mail.</p> : null}
      {/* No browser check: the spec's 'Begründung ist erforderlich' comes from the server. */}
      <Form method="post" action={texts.reason ? `${actionUrl.replace(/#.*$/, "")}#${reasonId}` : actionUrl} preventScrollReset noValidate>
        <input type="hidden" name="intent" value={step.intent} />
        <input type="hidden" name="registrationId" value={step.registrationId} />
        {extra ? <input type="hidden" name={ADD_PLACE} value="1" /> : null}
        {texts.reason ? (
          <StepReason
            id={reasonId}
            label={texts.field?.label ?? (texts.reason === "required" ? "Begründung*" : "Begründung (optional)")}
            hint={texts.field || texts.reason === "required" ? (texts.field?.hint ?? "Die Begründung steht in der E-Mail an die Eltern.") : null}
            required={texts.reason === "required"}
            error={error}
          />
        ) : (
          <StepRefusal error={error} />
        )}
        <ConfirmActions
          label={step.intent === "reject" ? "Ablehnen" : extra ? "Nachrücken mit zusätzlichem Platz" : DECISION_LABELS[step.intent]}
          cancelUrl={cancelUrl}
          danger={step.intent === "reject" || step.intent === "cancel"}
        />
      </Form>
    </ConfirmDialog>
  );
}
