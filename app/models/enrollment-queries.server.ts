// The queries of an enrolment (its form, its write transaction and its confirmation page), built
// by drizzle once per connection instead of on every call. When 500 parents enrol at once,
// building them cost more than running them, and the transaction held the write lock while it
// built (docs/decisions/0017-enrolment-burst.md).
//
// Two rules keep them the same as the queries they replace (tests/integration/enrollment-
// queries.test.ts compares them):
// - Values written through `bound()` are passed as SQLite stores them: 1/0/null for booleans,
//   milliseconds for times. drizzle converts a plain placeholder in a write with the column's
//   mapping, and that turns a null boolean into 0 and fails on a null time.
// - drizzle computes `$onUpdate` values (updated_at) when it builds a query: a prepared update
//   sets updated_at itself, from a placeholder.
import { and, asc, eq, sql } from "drizzle-orm";
import { enrolments, events, guardians, participants, registrationHistory, registrations, sepaMandates } from "../../db/schema";
import { bound, preparedQuery } from "~/services/db.server";

const param = (name: string) => sql.placeholder(name);

/** A boolean answer as SQLite stores it. */
export const storedBool = (value: boolean | null) => (value === null ? null : value ? 1 : 0);

const ENROL_EVENT_FIELDS = {
  id: events.id,
  title: events.title,
  dateFrom: events.dateFrom,
  startsAt: events.startsAt,
  registrationDeadline: events.registrationDeadline,
  priceCents: events.priceCents,
  siblingDiscountCents: events.siblingDiscountCents,
  capacity: events.capacity,
  requiresApplication: events.requiresApplication,
  tshirtSizeRequired: events.tshirtSizeRequired,
  swimBadgeRequired: events.swimBadgeRequired,
  permitsRequired: events.permitsRequired,
  onlyStaffVisible: events.onlyStaffVisible,
};

export const eventById = preparedQuery((db) => db.select(ENROL_EVENT_FIELDS).from(events).where(eq(events.id, param("eventId"))).prepare());

/**
 * Places taken: open and accepted registrations and open waiting-list offers (DECISIONS.md).
 * Counted as two disjoint parts, each from an index of its own rows only (placed ones, offers), so
 * the cost does not grow with the waiting list.
 */
export const placesTakenOf = preparedQuery((db) =>
  db
    .select({
      n: sql<number>`(select count(*) from ${registrations} where ${registrations.eventId} = ${param("eventId")} and ${registrations.waitingListPosition} is null and ${registrations.applicationStatus} in ('open', 'accepted'))
        + (select count(*) from ${registrations} where ${registrations.eventId} = ${param("eventId")} and ${registrations.offerExpiresAt} is not null and ${registrations.applicationStatus} in ('open', 'accepted'))`,
    })
    .from(sql`(select 1)`)
    .prepare(),
);

// The form: each child with the guardian of its latest registration (the box's default).
// (Spelled out: drizzle leaves the columns of a correlated subquery unqualified.)
const lastGuardian = sql<number | null>`(select r.guardian_id from registrations r where r.participant_id = "participants"."id" order by r.id desc limit 1)`;
export const childrenForForm = preparedQuery((db) =>
  db
    .select({ child: participants, lastGuardianId: lastGuardian })
    .from(participants)
    .where(eq(participants.userId, param("userId")))
    .orderBy(asc(participants.firstName), asc(participants.lastName))
    .prepare(),
);
export const guardiansForForm = preparedQuery((db) =>
  db.select().from(guardians).where(eq(guardians.userId, param("userId"))).orderBy(asc(guardians.lastName), asc(guardians.firstName)).prepare(),
);
export const mandateOf = preparedQuery((db) =>
  db
    .select()
    .from(sepaMandates)
    .where(and(eq(sepaMandates.userId, param("userId")), eq(sepaMandates.eventId, param("eventId"))))
    .prepare(),
);
export const registeredChildren = preparedQuery((db) =>
  db
    .select({
      participantId: registrations.participantId,
      // Whether it holds a place (`paysNow`): the form's total counts on from these.
      applicationStatus: registrations.applicationStatus,
      waitingListPosition: registrations.waitingListPosition,
    })
    .from(registrations)
    .where(and(eq(registrations.eventId, param("eventId")), eq(registrations.userId, param("userId"))))
    .prepare(),
);

// The transaction's view of the account.
export const childrenForRules = preparedQuery((db) =>
  db
    .select({ id: participants.id, firstName: participants.firstName, lastName: participants.lastName, birthDate: participants.birthDate })
    .from(participants)
    .where(eq(participants.userId, param("userId")))
    .prepare(),
);
export const guardianIdsOf = preparedQuery((db) => db.select({ id: guardians.id }).from(guardians).where(eq(guardians.userId, param("userId"))).prepare());

export const earlierEnrolmentOf = preparedQuery((db) =>
  db
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(and(eq(enrolments.userId, param("userId")), eq(enrolments.eventId, param("eventId")), eq(enrolments.submissionKey, param("submissionKey"))))
    .prepare(),
);

export const insertEnrolment = preparedQuery((db) =>
  db
    .insert(enrolments)
    .values({
      eventId: bound("eventId"),
      userId: bound("userId"),
      submissionKey: bound("submissionKey"),
      reference: bound("reference"),
      paymentMethod: bound("paymentMethod"),
    })
    .returning({ id: enrolments.id })
    .prepare(),
);
export const setEnrolmentReference = preparedQuery((db) =>
  db.update(enrolments).set({ reference: bound("reference") }).where(eq(enrolments.id, param("id"))).prepare(),
);

/**
 * This account's children already holding a place (sibling discount), the end of the waiting list
 * and how many are in line (a new child's place in line), each read from an index (the account's
 * registrations; the waiting list's positions; the open offers).
 */
export const eventPlacesBefore = preparedQuery((db) =>
  db
    .select({
      places: sql<number>`(select count(*) from ${registrations} where ${registrations.userId} = ${param("userId")} and ${registrations.eventId} = ${param("eventId")} and ${registrations.applicationStatus} in ('open', 'accepted') and ${registrations.waitingListPosition} is null)`,
      lastWaiting: sql<number>`(select coalesce(max(${registrations.waitingListPosition}), 0) from ${registrations} where ${registrations.eventId} = ${param("eventId")} and ${registrations.waitingListPosition} is not null)`,
      // In line: the waiting list less its open offers, which hold places (as waitingPlace counts).
      waiting: sql<number>`(select count(*) from ${registrations} where ${registrations.eventId} = ${param("eventId")} and ${registrations.waitingListPosition} is not null) - (select count(*) from ${registrations} indexed by "registrations_event_offer_idx" where ${registrations.eventId} = ${param("eventId")} and ${registrations.offerExpiresAt} is not null)`,
    })
    .from(sql`(select 1)`)
    .prepare(),
);

/** The box's answers, written to the child (defaults for next time) and to the registration. */
const boundAnswers = () => ({
  tshirtSize: bound("tshirtSize"),
  swimBadge: bound("swimBadge"),
  specialNeeds: bound("specialNeeds"),
  nameOfInsured: bound("nameOfInsured"),
  birthdateOfInsured: bound("birthdateOfInsured"),
});

/** The child's latest answers (defaults for the next enrolment); a permission only when answered. */
export const updateChildAnswers = preparedQuery((db) =>
  db
    .update(participants)
    .set({
      ...boundAnswers(),
      allowedToWander: sql`coalesce(${param("allowedToWander")}, ${participants.allowedToWander})`,
      allowedToSwim: sql`coalesce(${param("allowedToSwim")}, ${participants.allowedToSwim})`,
      canSwim: sql`coalesce(${param("canSwim")}, ${participants.canSwim})`,
      allowedToCanoe: sql`coalesce(${param("allowedToCanoe")}, ${participants.allowedToCanoe})`,
      updatedAt: bound("now"),
    })
    .where(eq(participants.id, param("id")))
    .prepare(),
);

export const insertRegistration = preparedQuery((db) =>
  db
    .insert(registrations)
    .values({
      eventId: bound("eventId"),
      participantId: bound("participantId"),
      userId: bound("userId"),
      guardianId: bound("guardianId"),
      referral: bound("referral"),
      paymentMethod: bound("paymentMethod"),
      sepaMandateId: bound("sepaMandateId"),
      waitingListPosition: bound("waitingListPosition"),
      ...boundAnswers(),
      allowedToWander: bound("allowedToWander"),
      allowedToSwim: bound("allowedToSwim"),
      canSwim: bound("canSwim"),
      allowedToCanoe: bound("allowedToCanoe"),
      submissionKey: bound("submissionKey"),
      enrolmentId: bound("enrolmentId"),
      amountCents: bound("amountCents"),
    })
    .returning({ id: registrations.id })
    .prepare(),
);
export const insertCreatedHistory = preparedQuery((db) =>
  db
    .insert(registrationHistory)
    .values({ registrationId: bound("registrationId"), actorId: bound("actorId"), action: "created" })
    .prepare(),
);

