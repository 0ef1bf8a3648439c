// A camp with families and registrations, written straight into the database (fast enough for a
// thousand registrations: no password hashing).
import { randomUUID } from "node:crypto";
import { eventGroups, eventHelpers, groupMembers, guardians, participants, registrations, users, type ApplicationStatus } from "../../db/schema";
import { db } from "~/services/db.server";

let counter = 0;

/** An account without a usable password (never signs in). */
export function quickUser(values: { email?: string; firstName?: string; lastName?: string } = {}) {
  counter++;
  return db
    .insert(users)
    .values({
      // Unique across test files too: the browser tests share one database, and a file's module
      // starts counting again in the same process.
      email: (values.email ?? `familie${counter}-${process.pid}-${randomUUID().slice(0, 8)}@example.org`).toLowerCase(),
      firstName: values.firstName ?? "Eva",
      lastName: values.lastName ?? `Familie${counter}`,
      passwordHash: "x",
      emailConfirmedAt: new Date(),
    })
    .returning()
    .get();
}

export type RegistrationOptions = {
  userId?: number;
  status?: ApplicationStatus;
  waitingListPosition?: number | null;
  paid?: boolean;
  child?: Partial<typeof participants.$inferInsert>;
  guardian?: Partial<typeof guardians.$inferInsert> | null;
  answers?: Partial<typeof registrations.$inferInsert>;
};

/** A child of `userId` (a new account when not given) registered for the event. */
export function register(eventId: number, options: RegistrationOptions = {}) {
  counter++;
  const userId = options.userId ?? quickUser().id;
  const child = db
    .insert(participants)
    .values({
      userId,
      firstName: "Kind",
      lastName: `Nummer${counter}`,
      street: "Seeweg 1",
      postalCode: "24306",
      city: "Plön",
      birthDate: "2015-05-20",
      municipality: "Kreis Plön",
      amtsverwaltung: "Amt Großer Plöner See",
      ...options.child,
    })
    .returning()
    .get();
  const guardian =
    options.guardian === null
      ? undefined
      : db
          .insert(guardians)
          .values({ userId, firstName: "Gerda", lastName: "Vormund", email: "", mobilePhone: "+49 171 1234567", ...options.guardian })
          .returning()
          .get();
  const registration = db
    .insert(registrations)
    .values({
      eventId,
      participantId: child.id,
      userId,
      guardianId: guardian?.id,
      paymentMethod: "transfer",
      applicationStatus: options.status ?? "accepted",
      waitingListPosition: options.waitingListPosition ?? null,
      paid: options.paid ?? false,
      amountCents: 24950,
      tshirtSize: "M",
      swimBadge: "Bronze",
      allowedToSwim: true,
      canSwim: false,
      ...options.answers,
    })
    .returning()
    .get();
  return { registration, child, guardian, userId };
}

export function addHelper(eventId: number, userId: number, status: "pending" | "accepted" | "declined" = "accepted") {
  db.insert(eventHelpers).values({ eventId, userId, status }).run();
}

export function addGroup(eventId: number, name: string, members: { registrationIds?: number[]; helperIds?: number[] } = {}) {
  const group = db.insert(eventGroups).values({ eventId, name }).returning().get();
  for (const registrationId of members.registrationIds ?? []) db.insert(groupMembers).values({ eventId, groupId: group.id, registrationId }).run();
  for (const helperUserId of members.helperIds ?? []) db.insert(groupMembers).values({ eventId, groupId: group.id, helperUserId }).run();
  return group;
}
