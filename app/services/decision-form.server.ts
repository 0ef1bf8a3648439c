// The decision forms of the participant list, the registration detail and the SEPA page: read
// through the one form reader, allowed by the permissions module, done by the model. Success
// redirects with a flash message (post/redirect/get); a refusal answers the page with the message
// next to the field.
import { json } from "~/services/json.server";
import { ADD_PLACE, DECISIONS, type Decision } from "~/lib/registration-machine";
import { acceptMany, confirmEnrolmentPayments, confirmMandatePayments, decide, type DecisionOutcome } from "~/models/registration-decision.server";
import { redirectWithFlash } from "./flash.server";
import { readForm } from "./form.server";
import { requireEventCapability, type Capability } from "./permissions.server";
import { idFrom } from "~/lib/ids";

export const DECISION_INTENTS = [...DECISIONS, "accept-many", "confirm-mandate", "confirm-enrolment"] as const;
export type DecisionIntent = (typeof DECISION_INTENTS)[number];

export type DecisionActionData = {
  /** `attempt`: the refusal's stamp; a message for no one row opens the page at it. */
  decision: { intent: DecisionIntent; registrationId: number | null; fieldErrors: { reason?: string[] }; message: string; attempt: number };
};

const PAYMENT_INTENTS: readonly DecisionIntent[] = ["confirm-payment", "revoke-payment", "confirm-mandate", "confirm-enrolment"];

const TITLES: Record<DecisionIntent, string> = {
  accept: "Anmeldung bestätigt",
  reject: "Anmeldung abgelehnt",
  cancel: "Anmeldung storniert",
  "revoke-rejection": "Ablehnung aufgehoben",
  "move-up": "Nachgerückt",
  "confirm-payment": "Bezahlung bestätigt",
  "revoke-payment": "Bezahlung widerrufen",
  "accept-many": "Anmeldungen bestätigt",
  "confirm-mandate": "Bezahlung bestätigt",
  "confirm-enrolment": "Bezahlung bestätigt",
};

export function isDecisionIntent(value: unknown): value is DecisionIntent {
  return typeof value === "string" && (DECISION_INTENTS as readonly string[]).includes(value);
}

/** The capability a decision needs: payments are their own right (DECISIONS.md). */
export function capabilityFor(intent: DecisionIntent): Capability {
  return PAYMENT_INTENTS.includes(intent) ? "confirmPayments" : "decideRegistrations";
}


/**
 * Handles a decision form posted to `eventId`'s pages; `backTo` is where success leads. An
 * already-read form may be passed (a page action that reads it first to look at the intent).
 */
export async function handleDecisionForm(request: Request, eventId: number | string | undefined, backTo: string, form?: FormData) {
  const formData = form ?? (await readForm(request));
  const intent = formData.get("intent");
  if (!isDecisionIntent(intent)) throw new Response("Unbekannte Aktion", { status: 400 });
  const { user, event, may } = await requireEventCapability(request, eventId, capabilityFor(intent), "not-found");
  const registrationId = idFrom(formData.get("registrationId"));
  const reason = String(formData.get("reason") ?? "");
  let outcome: DecisionOutcome;
  const ids = formData.getAll("registrationIds").map(idFrom).filter((id): id is number => id !== null);
  if (intent === "accept-many") {
    outcome = acceptMany(event.id, ids, user, reason);
  } else if (intent === "confirm-mandate") {
    const mandateId = idFrom(formData.get("sepaMandateId"));
    // The children the page showed (`registrationIds`): only those are confirmed.
    outcome = mandateId ? confirmMandatePayments(event.id, mandateId, user, new Date(), ids) : { ok: false, status: 404, message: "Dieses Mandat gibt es nicht." };
  } else if (intent === "confirm-enrolment") {
    const enrolmentId = idFrom(formData.get("enrolmentId"));
    // The children the button named (`registrationIds`): only those are confirmed.
    outcome = enrolmentId ? confirmEnrolmentPayments(event.id, enrolmentId, user, new Date(), ids) : { ok: false, status: 404, message: "Diese Anmeldung gibt es bei dieser Veranstaltung nicht." };
  } else {
    outcome = registrationId
      ? // 'Nachrücken' into a full camp adds a place only when its step asked and the person may set the places.
        decide(event.id, registrationId, intent as Decision, user, reason, new Date(), { addPlace: intent === "move-up" && formData.get(ADD_PLACE) === "1" && may.editEvent })
      : { ok: false, status: 404, message: "Diese Anmeldung gibt es bei dieser Veranstaltung nicht." };
  }
  if (outcome.ok) return redirectWithFlash(backTo, { kind: "success", title: TITLES[intent], message: outcome.message });
  const data: DecisionActionData = {
    decision: {
      intent,
      registrationId,
      fieldErrors: outcome.field ? { [outcome.field]: [outcome.message] } : {},
      message: outcome.message,
      attempt: Date.now(),
    },
  };
  return json(data, { status: outcome.status });
}
