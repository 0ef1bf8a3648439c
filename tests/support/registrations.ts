// Registrations written straight into the database, in any state a test needs.
import { eq } from "drizzle-orm";
import { participants, registrationHistory, registrations, sepaMandates } from "../../db/schema";
import type { ApplicationStatus } from "~/lib/enums";
import { db } from "~/services/db.server";

let children = 0;

export function createRegistration(
  eventId: number,
  userId: number,
  options: {
    status?: ApplicationStatus;
    waiting?: number | null;
    offerExpiresAt?: Date | null;
    paid?: boolean;
    sepaMandateId?: number | null;
    firstName?: string;
    lastName?: string;
    amountCents?: number | null;
  } = {},
) {
  children++;
  const child = db
    .insert(participants)
    .values({
      userId,
      firstName: options.firstName ?? `Kind${children}`,
      lastName: options.lastName ?? "Muster",
      street: "Weg 1",
      city: "Kiel",
      postalCode: "24103",
      birthDate: "2015-05-05",
    })
    .returning({ id: participants.id })
    .get();
  return db
    .insert(registrations)
    .values({
      eventId,
      userId,
      participantId: child.id,
      paymentMethod: options.sepaMandateId ? "sepa" : "transfer",
      sepaMandateId: options.sepaMandateId ?? null,
      applicationStatus: options.status ?? "open",
      waitingListPosition: options.waiting ?? null,
      offerExpiresAt: options.offerExpiresAt ?? null,
      paid: options.paid ?? false,
      amountCents: options.waiting ? null : options.amountCents ?? 15000,
    })
    .returning()
    .get();
}

export function createMandate(eventId: number, userId: number) {
  return db
    .insert(sepaMandates)
    .values({ eventId, userId, firstName: "Eva", lastName: "Muster", street: "Weg 1", postalCode: "24103", city: "Kiel", iban: "DE02120300000000202051" })
    .returning()
    .get();
}

export function registration(id: number) {
  return db.select().from(registrations).where(eq(registrations.id, id)).get()!;
}

export function historyOf(id: number) {
  return db.select().from(registrationHistory).where(eq(registrationHistory.registrationId, id)).orderBy(registrationHistory.id).all();
}
