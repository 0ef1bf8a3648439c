// A registration's detail for the event's staff (issue 10, item 5): the registration with its
// participant, guardian, account and transfer reference in one query, and its history in another.
import { asc, eq } from "drizzle-orm";
import { enrolments, events, guardians, participants, registrationHistory, registrations, users } from "../../db/schema";
import { db } from "~/services/db.server";
import { waitingPlace } from "./registration-change.server";

/** The event a registration belongs to (for the guard), or null. */
export function registrationEventId(registrationId: number): number | null {
  if (!Number.isSafeInteger(registrationId) || registrationId <= 0) return null;
  return db.select({ eventId: registrations.eventId }).from(registrations).where(eq(registrations.id, registrationId)).get()?.eventId ?? null;
}

export function getRegistrationDetail(registrationId: number) {
  const row = db
    .select({
      registration: {
        id: registrations.id,
        eventId: registrations.eventId,
        applicationStatus: registrations.applicationStatus,
        paid: registrations.paid,
        waitingListPosition: waitingPlace,
        offerExpiresAt: registrations.offerExpiresAt,
        paymentMethod: registrations.paymentMethod,
        sepaMandateId: registrations.sepaMandateId,
        amountCents: registrations.amountCents,
        referral: registrations.referral,
        tshirtSize: registrations.tshirtSize,
        swimBadge: registrations.swimBadge,
        specialNeeds: registrations.specialNeeds,
        nameOfInsured: registrations.nameOfInsured,
        birthdateOfInsured: registrations.birthdateOfInsured,
        allowedToWander: registrations.allowedToWander,
        allowedToSwim: registrations.allowedToSwim,
        canSwim: registrations.canSwim,
        allowedToCanoe: registrations.allowedToCanoe,
        createdAt: registrations.createdAt,
      },
      event: { title: events.title, tshirtSizeRequired: events.tshirtSizeRequired, swimBadgeRequired: events.swimBadgeRequired, permitsRequired: events.permitsRequired },
      participant: {
        id: participants.id,
        firstName: participants.firstName,
        lastName: participants.lastName,
        street: participants.street,
        postalCode: participants.postalCode,
        city: participants.city,
        birthDate: participants.birthDate,
        municipality: participants.municipality,
        amtsverwaltung: participants.amtsverwaltung,
      },
      guardian: {
        id: guardians.id,
        firstName: guardians.firstName,
        lastName: guardians.lastName,
        street: guardians.street,
        postalCode: guardians.postalCode,
        city: guardians.city,
        email: guardians.email,
        mobilePhone: guardians.mobilePhone,
        phone: guardians.phone,
      },
      account: { firstName: users.firstName, lastName: users.lastName, email: users.email },
      reference: enrolments.reference,
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .innerJoin(users, eq(users.id, registrations.userId))
    .leftJoin(guardians, eq(guardians.id, registrations.guardianId))
    .leftJoin(enrolments, eq(enrolments.id, registrations.enrolmentId))
    .where(eq(registrations.id, registrationId))
    .get();
  if (!row) return null;
  const history = db
    .select({
      id: registrationHistory.id,
      action: registrationHistory.action,
      reason: registrationHistory.reason,
      createdAt: registrationHistory.createdAt,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
    })
    .from(registrationHistory)
    .leftJoin(users, eq(users.id, registrationHistory.actorId))
    .where(eq(registrationHistory.registrationId, registrationId))
    .orderBy(asc(registrationHistory.createdAt), asc(registrationHistory.id))
    .all();
  const { registration } = row;
  return {
    ...row,
    guardian: row.guardian?.id ? row.guardian : null,
    registration: {
      ...registration,
      offerExpiresAt: registration.offerExpiresAt ? registration.offerExpiresAt.getTime() : null,
      createdAt: registration.createdAt.getTime(),
    },
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      reason: h.reason,
      at: h.createdAt.getTime(),
      actor: h.actorFirstName ? `${h.actorFirstName} ${h.actorLastName}` : null,
    })),
  };
}

export type RegistrationDetail = NonNullable<ReturnType<typeof getRegistrationDetail>>;
