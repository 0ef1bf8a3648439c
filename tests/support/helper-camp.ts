// Fixtures for the helper and group tests (issue 11): children with guardians and registrations,
// helper entries.
import { eventHelpers, guardians, participants, registrations, type ApplicationStatus, type HelperStatus } from "../../db/schema";
import { db } from "~/services/db.server";

let counter = 0;

export function createRegistration(
  eventId: number,
  userId: number,
  options: {
    status?: ApplicationStatus;
    waiting?: number | null;
    firstName?: string;
    lastName?: string;
    birthDate?: string;
    mobilePhone?: string;
    phone?: string;
    guardian?: boolean;
    specialNeeds?: string;
  } = {},
) {
  counter++;
  const guardian =
    options.guardian === false
      ? null
      : db
          .insert(guardians)
          .values({
            userId,
            firstName: "Gerda",
            lastName: `Gast${counter}`,
            mobilePhone: options.mobilePhone ?? "0171 1234567",
            phone: options.phone ?? "04522 98765",
          })
          .returning()
          .get();
  const participant = db
    .insert(participants)
    .values({
      userId,
      firstName: options.firstName ?? `Kind${counter}`,
      lastName: options.lastName ?? "Muster",
      street: "Seeweg 1",
      city: "Plön",
      birthDate: options.birthDate ?? "2015-05-01",
    })
    .returning()
    .get();
  return db
    .insert(registrations)
    .values({
      eventId,
      participantId: participant.id,
      userId,
      guardianId: guardian?.id ?? null,
      paymentMethod: "transfer",
      applicationStatus: options.status ?? "accepted",
      waitingListPosition: options.waiting ?? null,
      specialNeeds: options.specialNeeds ?? "",
      swimBadge: "Bronze",
      allowedToSwim: true,
      allowedToWander: true,
      canSwim: true,
      allowedToCanoe: false,
    })
    .returning()
    .get();
}

export function addHelperEntry(eventId: number, userId: number, status: HelperStatus = "pending") {
  db.insert(eventHelpers).values({ eventId, userId, status }).run();
}
