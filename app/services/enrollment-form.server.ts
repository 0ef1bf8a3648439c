// The buttons of the enrolment form (issue 9, items 1, 2 and 4). Every one but the enrolment
// itself answers with the form again, everything typed kept; the enrolment answers with all
// messages at once, or with the way to its confirmation page (post/redirect/get).
import type { Submission as Submission_ } from "@conform-to/react";
import { parseWithZod } from "~/services/parse-form.server";
import type { z } from "zod";
import { birthDateProblem, checkBoxes, filledFields, mergeProblems, type Problems } from "~/lib/enrollment-rules";
import { addBox, defaultGuardian, MAX_BOXES, nextSavedChild, removeBox, switchedChildAnswers, takeOverChildAnswers, type Payload } from "~/lib/enrollment-payload";
import { isIsoDate } from "~/lib/dates";
import { earlierEnrolment, enrol, EnrolmentError, lateProblem, type getEnrolmentContext } from "~/models/enrollment.server";
import { saveFromEnrolmentBox } from "~/models/family.server";
import type { SessionUser } from "~/models/user.server";
import { enrollmentSchema, newChildSchema, newGuardianSchema, sepaProblems } from "~/schemas/enrollment";
import { randomToken } from "./tokens.server";

type Context = NonNullable<ReturnType<typeof getEnrolmentContext>>;
/** `saved`: what 'Im Konto speichern' of box `index` saved, said in that box. */
export type FormState = { payload: Payload; errors: Problems; stamp: number; saved?: { index: number; text: string } };
export type FormAnswer = { redirectTo: string } | { state: FormState; status: number };

const KEY = /^[\w-]{16,64}$/;

function prefixed(prefix: string, problems: Problems): Problems {
  return Object.fromEntries(Object.entries(problems).map(([field, messages]) => [`${prefix}${field}`, messages]));
}

function fieldErrors(error: { flatten(): { fieldErrors: Record<string, string[] | undefined> } }): Problems {
  return Object.fromEntries(Object.entries(error.flatten().fieldErrors).filter((e): e is [string, string[]] => Boolean(e[1]?.length)));
}

/** The form as sent: at most ten boxes, each with its one-time key for 'Im Konto speichern'. */
function payloadOf(raw: unknown, context: Context): Payload {
  const payload = { ...(raw as Record<string, unknown>) } as Payload;
  const boxes = Array.isArray(payload.boxes) ? payload.boxes.filter((b) => b && typeof b === "object").slice(0, MAX_BOXES) : [];
  payload.boxes = boxes.length ? boxes : [{ participant: "neu", answersFor: "neu" }];
  for (const box of payload.boxes) if (typeof box.saveKey !== "string" || !KEY.test(box.saveKey)) box.saveKey = randomToken();
  if (context.mandate) payload.paymentMethod = "sepa";
  return payload;
}

/** 'Im Konto speichern': the box's new child and new guardian, both or neither; the names saved. */
function saveBox(payload: Payload, index: number, user: SessionUser, context: Context): { problems: Problems; names: string[] } {
  const box = payload.boxes[index];
  if (!box) return { problems: {}, names: [] };
  const at = (field: string) => `boxes[${index}].${field}`;
  let problems: Problems = {};
  const child = box.participant === "neu" ? newChildSchema.safeParse(filledFields(box.child)) : null;
  if (child && !child.success) problems = { ...problems, ...prefixed(at("child."), fieldErrors(child.error)) };
  // The birth date as typed: a date in the future is said with the other fields' messages.
  const birthDate = child ? String(filledFields(box.child).birthDate ?? "") : "";
  const wrongDate = isIsoDate(birthDate) ? birthDateProblem(birthDate, context.rules.today, context.event.dateFrom) : null;
  if (wrongDate) problems[at("child.birthDate")] = [wrongDate];
  const guardian = box.guardian === "neu" ? newGuardianSchema.safeParse(filledFields(box.newGuardian)) : null;
  if (guardian && !guardian.success) problems = { ...problems, ...prefixed(at("newGuardian."), fieldErrors(guardian.error)) };
  if (Object.keys(problems).length || (!child && !guardian)) return { problems, names: [] };

  const saved = saveFromEnrolmentBox(user.id, String(box.saveKey), {
    child: child?.success ? child.data : null,
    guardian: guardian?.success ? guardian.data : null,
  });
  if (saved.participantId) {
    box.participant = box.answersFor = String(saved.participantId);
    delete box.child;
  }
  if (saved.guardianId) {
    box.guardian = String(saved.guardianId);
    delete box.newGuardian;
    for (const other of payload.boxes) if (other.guardian === `box-${index}`) other.guardian = String(saved.guardianId);
  }
  box.saveKey = randomToken();
  const names = [child?.data, guardian?.data].flatMap((person) => (person ? [`${person.firstName} ${person.lastName}`] : []));
  return { problems: {}, names };
}

/** A name's genitive as German writes it: Tims, Max’. */
const genitive = (name: string) => (/[sxzß]$/.test(name) ? `${name}’` : `${name}s`);

/** The message at a box whose child was changed without its answers (switchedChildAnswers). */
function switchedSaid(shown: { firstName: string } | undefined, chosen: { firstName: string } | undefined) {
  const before = shown ? `Die Angaben unten waren noch die von ${shown.firstName}.` : "Die Angaben unten waren noch die für ein neues Kind.";
  const now = chosen ? `${genitive(chosen.firstName)} gespeicherte Angaben` : "leere Felder für das neue Kind";
  return `${before} Jetzt stehen dort ${now}, und was du geändert hast, ist geblieben: Bitte prüfe sie und melde dann an.`;
}

type Submission = Submission_<z.input<typeof enrollmentSchema>, string[], z.output<typeof enrollmentSchema>>;

async function submit(submission: Submission, payload: Payload, eventId: number, user: SessionUser, context: Context): Promise<FormAnswer> {
  // The same form again (double click, reload, retry): the confirmation of the first one.
  const key = String(payload.submissionKey ?? "");
  const earlier = KEY.test(key) ? earlierEnrolment(eventId, user.id, key) : null;
  if (earlier) return { redirectTo: `/anmeldung/${earlier.id}` };
  const switched = switchedChildAnswers(payload, context.children);
  if (switched.length) {
    const errors = Object.fromEntries(switched.map(({ index, shown, chosen }) => [`boxes[${index}].participant`, [switchedSaid(shown, chosen)]]));
    return { state: { payload, errors, stamp: Date.now() }, status: 400 };
  }
  const schemaErrors: Problems = {};
  if (submission.status !== "success") {
    for (const [path, messages] of Object.entries(submission.error ?? {})) if (messages?.length && !path.startsWith("sepa")) schemaErrors[path] = messages;
  }
  const sepaGiven = payload.sepa && Object.values(payload.sepa).some((v) => typeof v === "string" && v.trim() !== "");
  const sepa = payload.paymentMethod === "sepa" && (!context.mandate || sepaGiven) ? sepaProblems(payload.sepa) : null;
  const late = lateProblem(context.event, context.placesLeft, payload.boxes.length);
  let errors = mergeProblems(schemaErrors, checkBoxes(payload.boxes, context.rules), prefixed("sepa.", sepa?.problems ?? {}), late ? { "": [late] } : {});
  if (!Object.keys(errors).length && submission.status === "success") {
    try {
      const { consentMandate: _m, consentPrivacy: _p, ...mandate } = sepa?.value ?? { consentMandate: "on", consentPrivacy: "on" };
      const result = await enrol(eventId, user, { ...submission.value, sepa: sepa?.value ? (mandate as NonNullable<typeof sepa.value>) : null });
      return { redirectTo: `/anmeldung/${result.enrolmentId}` };
    } catch (error) {
      if (!(error instanceof EnrolmentError)) throw error;
      errors = {};
      for (const problem of error.problems) (errors[problem.path] ??= []).push(problem.message);
    }
  }
  return { state: { payload, errors, stamp: Date.now() }, status: 400 };
}

export async function answerEnrolmentForm(formData: FormData, eventId: number, user: SessionUser, context: Context): Promise<FormAnswer> {
  const intent = String(formData.get("intent") ?? "submit");
  const submission = parseWithZod(formData, { schema: enrollmentSchema });
  const payload = payloadOf(submission.payload, context);
  // Where the page comes back is the button's formAction (#teilnehmer-2, #zahlung); after a refused
  // submit the error summary (autofocus).
  const answer = (errors: Problems = {}, saved?: FormState["saved"]): FormAnswer => ({
    state: { payload, errors, stamp: Date.now(), ...(saved ? { saved } : {}) },
    status: Object.keys(errors).length ? 400 : 200,
  });

  const guardianIds = context.guardians.map((g) => g.id);
  if (intent === "add") {
    const before = payload.boxes.length;
    addBox(payload, randomToken());
    // None added at the most boxes: the last one stays as it is.
    const added = payload.boxes.length > before ? payload.boxes[before] : undefined;
    // The next saved child no box has chosen and not registered yet, with its answers, as the
    // first box starts; a new child once none is left.
    const next = nextSavedChild(context.children, context.registered, payload.boxes);
    if (added && next) {
      added.participant = String(next.id);
      // This box only: another box's child chosen without 'Auswahl übernehmen' keeps what was typed.
      takeOverChildAnswers({ boxes: [added] }, context.children, guardianIds);
    }
    if (added && !added.guardian) added.guardian = defaultGuardian(undefined, guardianIds);
    return answer();
  }
  if (intent.startsWith("remove-")) {
    const index = Number(intent.slice("remove-".length));
    removeBox(payload, index);
    return answer();
  }
  if (intent.startsWith("save-")) {
    const index = Number(intent.slice("save-".length));
    const { problems, names } = saveBox(payload, index, user, context);
    takeOverChildAnswers(payload, context.children, guardianIds);
    const saved = `Gespeichert: ${names.join(" und ")} ${names.length > 1 ? "sind" : "ist"} jetzt in deinem Konto und hier ausgewählt.`;
    return answer(problems, names.length ? { index, text: saved } : undefined);
  }
  if (intent === "submit") return submit(submission, payload, eventId, user, context);
  // 'Auswahl übernehmen' and 'Weiter': the form again with the new choices' fields.
  takeOverChildAnswers(payload, context.children, guardianIds);
  return answer();
}
