// Enrolment: one submission creates all its registrations (and new children, guardians and the
// SEPA mandate) and one enrolment (its payment) in one write transaction, or nothing: a savepoint
// of the group commit that enrolments of the same moment share (writeTransactionTogether), under
// the write lock. Places are counted under that lock, so concurrent enrolments never overbook; a
// repeated submission finds its enrolment.
import { and, eq } from "drizzle-orm";
import { events, registrations, sepaMandates, type PaymentMethod } from "../../db/schema";
import { berlinToday } from "~/lib/dates";
import { checkBoxes, guardianBoxIndex, NO_GUARDIAN, type Problems, type RuleContext } from "~/lib/enrollment-rules";
import { childAmounts } from "~/lib/money";
import { paysNow } from "~/lib/registration-machine";
import { enrolmentReference } from "~/lib/transfer";
import { newChildSchema, newGuardianSchema, type BoxValue, type SepaValue } from "~/schemas/enrollment";
import { db } from "~/services/db.server";
import { writeTransactionTogether } from "~/services/group-commit.server";
import { queueMail } from "~/services/mail.server";
import { mandateReference } from "~/lib/creditor-id";
import { confirmationMail } from "./enrollment-mail.server";
import {
  childrenForForm,
  childrenForRules,
  earlierEnrolmentOf,
  eventById,
  eventPlacesBefore,
  guardianIdsOf,
  guardiansForForm,
  insertCreatedHistory,
  insertEnrolment,
  insertRegistration,
  mandateOf,
  registeredChildren,
  setEnrolmentReference,
  storedBool,
  updateChildAnswers,
} from "./enrollment-queries.server";
import { placesTaken, visibleTo } from "./event.server";
import { createGuardian, createParticipant } from "./family.server";
import { recordLegalConsent } from "./legal.server";
import type { SessionUser } from "./user.server";

export const NOT_FOUND = "Die Freizeit wurde nicht gefunden oder konnte nicht geladen werden";

export type EnrolmentProblem = { path: string; message: string };

export class EnrolmentError extends Error {
  constructor(readonly problems: EnrolmentProblem[]) {
    super(problems.map((p) => p.message).join(" "));
  }
  static of(problems: Problems) {
    return new EnrolmentError(Object.entries(problems).flatMap(([path, messages]) => messages.map((message) => ({ path, message }))));
  }
}

export type EnrolmentRequest = {
  submissionKey: string;
  boxes: BoxValue[];
  referral: string;
  paymentMethod: PaymentMethod;
  /** New or corrected mandate data; null to use the existing one. */
  sepa: Omit<SepaValue, "consentMandate" | "consentPrivacy"> | null;
};

export type EnrolmentResult = { enrolmentId: number; repeated: boolean };

/**
 * The event, when this person may see it and it takes enrolments. Visibility asks more only for
 * an event shown to the team alone (visibleTo); the usual one is read by a prepared query.
 */
/** The event if `user` may see it (a staff-only event: its staff and admins). */
function visibleEvent(eventId: number, user: SessionUser) {
  const event = eventById().get({ eventId });
  if (!event) return null;
  if (event.onlyStaffVisible && user.role !== "admin") {
    const visible = db.select({ id: events.id }).from(events).where(and(eq(events.id, eventId), visibleTo(user))).get();
    if (!visible) return null;
  }
  return event;
}

/** The event if `user` may see it and it takes enrolments. */
function findEvent(eventId: number, user: SessionUser) {
  const event = visibleEvent(eventId, user);
  return event?.requiresApplication ? event : null;
}

/** True for an event `user` may see that needs no registration (its enrolment form has nothing to do). */
export function takesNoEnrolment(eventId: number, user: SessionUser) {
  const event = visibleEvent(eventId, user);
  return !!event && !event.requiresApplication;
}
type EnrolEvent = NonNullable<ReturnType<typeof findEvent>>;

/** After the deadline an enrolment only takes free places (DECISIONS.md, registration deadline). */
export function deadlinePassed(event: { registrationDeadline: string | null }, now = new Date()) {
  return event.registrationDeadline !== null && berlinToday(now) > event.registrationDeadline;
}

/** The message when a late enrolment asks for more places than are free; null when it fits. */
export function lateProblem(event: { registrationDeadline: string | null }, free: number | null, children: number, now = new Date()) {
  if (!deadlinePassed(event, now) || free === null || children <= free) return null;
  if (free === 0) return "Der Anmeldeschluss ist vorbei und alle Plätze sind vergeben. Eine Anmeldung ist nicht mehr möglich.";
  return `Der Anmeldeschluss ist vorbei: Es ${free === 1 ? "ist nur noch 1 Platz" : `sind nur noch ${free} Plätze`} frei. Bitte melde höchstens ${free === 1 ? "ein Kind" : `${free} Kinder`} an.`;
}

/** What the rules of the boxes need to know about the account (inside the transaction). */
function ruleContext(event: EnrolEvent, userId: number, now = new Date()): RuleContext {
  const children = childrenForRules().all({ userId });
  return {
    event,
    today: berlinToday(now),
    children: new Map(children.map((c) => [c.id, c])),
    guardianIds: new Set(guardianIdsOf().all({ userId }).map((g) => g.id)),
    registeredIds: new Set(registeredChildren().all({ eventId: event.id, userId }).map((r) => r.participantId)),
  };
}

/** What the enrolment form needs: the event, the account's children and guardians, a mandate. */
export function getEnrolmentContext(eventId: number, user: SessionUser, now = new Date()) {
  const event = findEvent(eventId, user);
  if (!event) return null;
  const children = childrenForForm()
    .all({ userId: user.id })
    .map(({ child, lastGuardianId }) => ({ ...child, lastGuardianId }));
  const family = guardiansForForm().all({ userId: user.id });
  const mandate = mandateOf().get({ userId: user.id, eventId }) ?? null;
  // The rules' view of the account from the lists above: two queries fewer on every request.
  const registered = registeredChildren().all({ eventId, userId: user.id });
  const rules: RuleContext = {
    event,
    today: berlinToday(now),
    children: new Map(children.map((c) => [c.id, c])),
    guardianIds: new Set(family.map((g) => g.id)),
    registeredIds: new Set(registered.map((r) => r.participantId)),
  };
  const placesLeft = event.capacity === null ? null : Math.max(0, event.capacity - placesTaken(eventId));
  return {
    event: { ...event, started: event.startsAt.getTime() <= now.getTime(), late: deadlinePassed(event, now) },
    children,
    guardians: family,
    mandate,
    registered: [...rules.registeredIds],
    /** Each registered child's state here: the form names them, and why one cannot be chosen again. */
    registeredStates: registered.map((r) => ({ participantId: r.participantId, applicationStatus: r.applicationStatus })),
    /** The account's children already holding a place here: the sibling discount counts on from them. */
    placesHeld: registered.filter(paysNow).length,
    placesLeft,
    rules,
  };
}

/** The enrolment an earlier submission of the same form created (double click, reload, retry). */
export function earlierEnrolment(eventId: number, userId: number, submissionKey: string) {
  return earlierEnrolmentOf().get({ eventId, userId, submissionKey }) ?? null;
}

function toBool(answer: "ja" | "nein" | undefined) {
  return answer === undefined ? null : answer === "ja";
}

/**
 * Enrols the children of one form. Rejects with an EnrolmentError (nothing written) when a rule
 * does not hold: the server checks every rule, whatever the browser sent.
 */
export function enrol(eventId: number, user: SessionUser, request: EnrolmentRequest, now = new Date()): Promise<EnrolmentResult> {
  // Committed with the enrolments of the same moment (group commit): one fsync for a burst.
  return writeTransactionTogether((tx) => {
    const event = findEvent(eventId, user);
    if (!event) throw new EnrolmentError([{ path: "", message: NOT_FOUND }]);
    const earlier = earlierEnrolment(eventId, user.id, request.submissionKey);
    if (earlier) return { enrolmentId: earlier.id, repeated: true };
    if (event.startsAt.getTime() <= now.getTime()) {
      throw new EnrolmentError([{ path: "", message: "Diese Veranstaltung hat schon begonnen. Eine Anmeldung ist nicht mehr möglich." }]);
    }

    const rules = ruleContext(event, user.id, now);
    const problems: Problems = checkBoxes(request.boxes, rules);
    // The SEPA mandate: an existing one of this account and event fixes the payment method
    // (the form locks the choice); it can be corrected while nothing is paid. Otherwise a new one.
    const existingMandate = mandateOf().get({ userId: user.id, eventId });
    const paymentMethod: PaymentMethod = existingMandate ? "sepa" : request.paymentMethod;
    let sepaMandateId: number | null = existingMandate?.id ?? null;
    if (existingMandate && request.sepa) {
      const paid = tx
        .select({ id: registrations.id })
        .from(registrations)
        .where(and(eq(registrations.sepaMandateId, existingMandate.id), eq(registrations.paid, true)))
        .get();
      if (paid) problems.sepa = ["Das Mandat ist schon eingezogen und kann nicht mehr geändert werden."];
      else tx.update(sepaMandates).set({ ...request.sepa, updatedAt: new Date() }).where(eq(sepaMandates.id, existingMandate.id)).run();
    } else if (!existingMandate && paymentMethod === "sepa") {
      if (request.sepa) sepaMandateId = tx.insert(sepaMandates).values({ userId: user.id, eventId, ...request.sepa }).returning({ id: sepaMandates.id }).get().id;
      else problems.sepa = ["Bitte füllen Sie das SEPA-Lastschriftmandat aus."];
    }

    // Places: counted under the write lock (BEGIN IMMEDIATE), so no one slips in between.
    const free = event.capacity === null ? null : Math.max(0, event.capacity - placesTaken(eventId));
    const late = lateProblem(event, free, request.boxes.length, now);
    if (late) problems[""] = [late];
    if (Object.keys(problems).length) throw EnrolmentError.of(problems);

    // New guardians first: a box may name the one typed into another box ("box-1").
    const typedGuardians = new Map<number, number>();
    request.boxes.forEach((box, index) => {
      if (box.guardian === "neu") typedGuardians.set(index, createGuardian(user.id, newGuardianSchema.parse(box.newGuardian ?? {}), tx));
    });
    const { submissionKey } = request;
    const enrolmentId = insertEnrolment().get({ eventId, userId: user.id, submissionKey, reference: `neu-${user.id}-${submissionKey}`, paymentMethod })!.id;
    setEnrolmentReference().run({ id: enrolmentId, reference: enrolmentReference(eventId, enrolmentId) });
    recordLegalConsent(enrolmentId, now); // proof of consent: the terms and privacy versions accepted

    // In one read of the event's registrations: this account's children already holding a place
    // (the sibling discount counts on from them), the end of the waiting list and its length.
    const before = eventPlacesBefore().get({ eventId, userId: user.id })!;
    const placed = request.boxes.map((_, index) => free === null || index < free);
    const amounts = childAmounts(event.priceCents, event.siblingDiscountCents, before.places, placed);
    let nextWaiting = before.lastWaiting + 1;
    let nextPlaceInLine = before.waiting + 1; // what the mail says: positions of those gone are not counted

    const created: { firstName: string; lastName: string; waitingListPosition: number | null; amountCents: number | null }[] = [];
    request.boxes.forEach((box, index) => {
      let participantId: number;
      let name: { firstName: string; lastName: string };
      if (box.participant === "neu") {
        const child = newChildSchema.parse(box.child ?? {});
        participantId = createParticipant(user.id, child, tx);
        name = child;
      } else {
        participantId = Number(box.participant);
        // Read under the lock with the rules' view of the account (checkBoxes found it there).
        name = rules.children.get(participantId)!;
      }
      const other = guardianBoxIndex(box.guardian);
      const guardianId = box.guardian === "neu" ? typedGuardians.get(index)! : other !== null ? typedGuardians.get(other)! : box.guardian && box.guardian !== NO_GUARDIAN ? Number(box.guardian) : null;
      const answers = {
        tshirtSize: box.tshirtSize ?? null,
        swimBadge: box.swimBadge ?? null,
        specialNeeds: box.specialNeeds,
        nameOfInsured: box.nameOfInsured,
        birthdateOfInsured: box.birthdateOfInsured || null,
      };
      const permissions = {
        allowedToWander: toBool(box.allowedToWander),
        allowedToSwim: toBool(box.allowedToSwim),
        canSwim: toBool(box.canSwim),
        allowedToCanoe: toBool(box.allowedToCanoe),
      };
      // The child's record keeps the latest answers, only as defaults for the next enrolment.
      const stored = {
        ...answers,
        allowedToWander: storedBool(permissions.allowedToWander),
        allowedToSwim: storedBool(permissions.allowedToSwim),
        canSwim: storedBool(permissions.canSwim),
        allowedToCanoe: storedBool(permissions.allowedToCanoe),
      };
      updateChildAnswers().run({ ...stored, id: participantId, now: Date.now() });
      const waitingListPosition = placed[index] ? null : nextWaiting++;
      const registration = insertRegistration().get({
        ...stored,
        eventId,
        participantId,
        userId: user.id,
        guardianId,
        referral: request.referral,
        paymentMethod,
        sepaMandateId,
        waitingListPosition,
        submissionKey,
        enrolmentId,
        amountCents: amounts[index],
      })!;
      insertCreatedHistory().run({ registrationId: registration.id, actorId: user.id });
      created.push({ ...name, waitingListPosition: waitingListPosition === null ? null : nextPlaceInLine++, amountCents: amounts[index] });
    });

    // To the address the session read with this request (the account's row, not a copy).
    const mandate = sepaMandateId === null ? null : mandateReference(eventId, sepaMandateId);
    queueMail(tx, confirmationMail({ account: user, event, enrolmentId, reference: enrolmentReference(eventId, enrolmentId), created, paymentMethod, mandate }));
    return { enrolmentId, repeated: false };
  });
}
