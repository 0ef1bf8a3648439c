// The children (participants) and guardians of an account, as the account page shows them.
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { comments, events, guardians, participants, registrations, users, type SwimBadge, type TshirtSize } from "../../db/schema";
import { waitingPlace } from "./registration-change.server";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";

export type ParticipantInput = {
  firstName: string;
  lastName: string;
  street: string;
  postalCode: string | null;
  city: string;
  birthDate: string;
  municipality: string;
  amtsverwaltung: string;
  tshirtSize: TshirtSize | null;
  swimBadge: SwimBadge | null;
  specialNeeds: string;
};

export type GuardianInput = {
  firstName: string;
  lastName: string;
  street: string;
  postalCode: string;
  city: string;
  email: string;
  mobilePhone: string;
  phone: string;
};

/** Everything of the tab 'Deine Teilnehmer*innen' in four queries, whatever the family's size. */
export function getFamily(userId: number) {
  const now = Date.now();
  const children = db
    .select()
    .from(participants)
    .where(eq(participants.userId, userId))
    .orderBy(asc(participants.firstName), asc(participants.lastName))
    .all();
  const family = db.select().from(guardians).where(eq(guardians.userId, userId)).orderBy(asc(guardians.lastName), asc(guardians.firstName)).all();
  const ids = children.map((c) => c.id);
  const enrolled = ids.length
    ? db
        .select({
          participantId: registrations.participantId,
          id: registrations.id,
          eventId: events.id,
          title: events.title,
          dateFrom: events.dateFrom,
          applicationStatus: registrations.applicationStatus,
          paid: registrations.paid,
          amountCents: registrations.amountCents,
          waitingListPosition: waitingPlace,
          offerExpiresAt: registrations.offerExpiresAt,
          enrolmentId: registrations.enrolmentId,
          eventStarted: sql<boolean>`${events.startsAt} <= ${now}`.mapWith(Boolean),
        })
        .from(registrations)
        .innerJoin(events, eq(events.id, registrations.eventId))
        .where(inArray(registrations.participantId, ids))
        // The next event first (what a parent looks for), then the past ones, the latest first.
        .orderBy(
          sql`${events.startsAt} <= ${now}`,
          sql`case when ${events.startsAt} > ${now} then ${events.startsAt} end`,
          desc(events.startsAt),
        )
        .all()
    : [];
  const notes = ids.length
    ? db
        .select({
          participantId: comments.participantId,
          id: comments.id,
          text: comments.text,
          createdAt: comments.createdAt,
          authorFirstName: users.firstName,
          authorLastName: users.lastName,
        })
        .from(comments)
        .leftJoin(users, eq(users.id, comments.authorId))
        .where(inArray(comments.participantId, ids))
        .orderBy(asc(comments.createdAt))
        .all()
    : [];
  return {
    children: children.map((child) => ({
      ...child,
      registrations: enrolled.filter((r) => r.participantId === child.id),
      comments: notes.filter((n) => n.participantId === child.id),
    })),
    guardians: family,
  };
}

/** A child's stored special needs, of this account's children only (null: no such child). */
export function storedSpecialNeeds(userId: number, participantId: number) {
  return db.select({ text: participants.specialNeeds }).from(participants).where(and(eq(participants.id, participantId), eq(participants.userId, userId))).get()?.text ?? null;
}

/**
 * Creates (id null) or updates a child of `userId`; false when the id is not one of theirs.
 * A creation repeated with the same submission key creates nothing more.
 */

export function saveParticipant(userId: number, id: number | null, input: ParticipantInput, submissionKey: string | null = null) {
  if (id === null) {
    writeTransaction((tx) => {
      if (earlierSubmission(tx, submissionKey, userId)) return;
      tx.insert(participants).values({ ...input, userId }).run();
      recordSubmission(tx, submissionKey, userId, "/account?tab=teilnehmer");
    });
    return true;
  }
  return (
    db
      .update(participants)
      .set({ ...input, updatedAt: new Date() })
      .where(and(eq(participants.id, id), eq(participants.userId, userId)))
      .run().changes === 1
  );
}

export function saveGuardian(userId: number, id: number | null, input: GuardianInput, submissionKey: string | null = null) {
  if (id === null) {
    writeTransaction((tx) => {
      if (earlierSubmission(tx, submissionKey, userId)) return;
      tx.insert(guardians).values({ ...input, userId }).run();
      recordSubmission(tx, submissionKey, userId, "/account?tab=teilnehmer");
    });
    return true;
  }
  return (
    db
      .update(guardians)
      .set({ ...input, updatedAt: new Date() })
      .where(and(eq(guardians.id, id), eq(guardians.userId, userId)))
      .run().changes === 1
  );
}

/** A new child of the account from the enrolment form's fields; returns its id. */
export function createParticipant(
  userId: number,
  input: Pick<ParticipantInput, "firstName" | "lastName" | "street" | "city" | "birthDate"> & { postalCode?: string; municipality?: string; amtsverwaltung?: string },
  database: Queryable = db,
) {
  return database
    .insert(participants)
    .values({ ...input, postalCode: input.postalCode || null, municipality: input.municipality ?? "", amtsverwaltung: input.amtsverwaltung ?? "", userId })
    .returning({ id: participants.id })
    .get().id;
}

export function createGuardian(userId: number, input: Partial<GuardianInput> & { firstName: string; lastName: string }, database: Queryable = db) {
  return database
    .insert(guardians)
    .values({
      userId,
      firstName: input.firstName,
      lastName: input.lastName,
      street: input.street ?? "",
      postalCode: input.postalCode ?? "",
      city: input.city ?? "",
      email: input.email ?? "",
      mobilePhone: input.mobilePhone ?? "",
      phone: input.phone ?? "",
    })
    .returning({ id: guardians.id })
    .get().id;
}

/**
 * 'Im Konto speichern' of an enrolment box: the box's new child and new guardian go into the
 * account together. A repeat with the same one-time key (double tap, retry) answers with the
 * first save's ids and creates nothing.
 */
export function saveFromEnrolmentBox(
  userId: number,
  key: string | null,
  input: { child: Parameters<typeof createParticipant>[1] | null; guardian: Parameters<typeof createGuardian>[1] | null },
) {
  return writeTransaction((tx) => {
    const earlier = earlierSubmission(tx, key, userId);
    if (earlier) {
      const saved = new URL(earlier, "http://x").searchParams;
      return { participantId: Number(saved.get("kind")) || null, guardianId: Number(saved.get("person")) || null };
    }
    const participantId = input.child ? createParticipant(userId, input.child, tx) : null;
    const guardianId = input.guardian ? createGuardian(userId, input.guardian, tx) : null;
    const saved = new URLSearchParams({ tab: "teilnehmer" });
    if (participantId) saved.set("kind", String(participantId));
    if (guardianId) saved.set("person", String(guardianId));
    recordSubmission(tx, key, userId, `/account?${saved}`);
    return { participantId, guardianId };
  });
}
