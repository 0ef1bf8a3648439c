// Deleting an account (spec part 1, account; DECISIONS.md): the account with its family data in
// one transaction, and the lead persons of upcoming events told what was withdrawn.
import { and, asc, count, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { eventOwners, events, participants, registrations, users } from "../../db/schema";
import { formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { writeTransaction } from "~/services/db.server";
import { GREETING, queueMail, withdrawMailsTo } from "~/services/mail.server";
import { offerFreePlaces } from "./waiting-list.server";

/** What the lead persons need to know of a withdrawn registration: on the waiting list, or paid. */
function withdrawnState(r: { waiting: boolean; paid: boolean; amountCents: number | null; paymentMethod: string }) {
  if (r.waiting) return ", auf der Warteliste";
  if (!r.paid) return "";
  const amount = r.amountCents ? `${formatEuro(r.amountCents)} ` : "";
  return `, schon bezahlt: ${amount}${r.paymentMethod === "sepa" ? "per SEPA-Lastschrift" : "per Überweisung"} – bitte zurückzahlen`;
}

/**
 * Deletes an account with its participants, guardians, SEPA mandates and registrations (the
 * foreign keys cascade) in one transaction. The leaders of upcoming events a child of the
 * account was registered for are told that the registration was withdrawn.
 */
export function deleteAccount(userId: number, now = new Date()): { ok: true } | { ok: false; reason: "last_admin" } {
  return writeTransaction((tx) => {
    const account = tx.select({ role: users.role, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).get();
    if (!account) return { ok: true as const };
    if (account.role === "admin") {
      const admins = tx.select({ n: count() }).from(users).where(and(eq(users.role, "admin"), eq(users.banned, false))).get()!.n;
      if (admins <= 1) return { ok: false as const, reason: "last_admin" as const };
    }
    const withdrawn = tx
      .select({
        ownerEmail: users.email,
        ownerFirstName: users.firstName,
        eventTitle: events.title,
        eventDate: events.dateFrom,
        childFirstName: participants.firstName,
        childLastName: participants.lastName,
        waiting: sql<boolean>`${registrations.waitingListPosition} is not null and ${registrations.offerExpiresAt} is null`.mapWith(Boolean),
        paid: registrations.paid,
        amountCents: registrations.amountCents,
        paymentMethod: registrations.paymentMethod,
      })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .innerJoin(participants, eq(participants.id, registrations.participantId))
      .innerJoin(eventOwners, eq(eventOwners.eventId, events.id))
      .innerJoin(users, eq(users.id, eventOwners.userId))
      .where(
        and(
          eq(registrations.userId, userId),
          gt(events.startsAt, now),
          inArray(registrations.applicationStatus, ["open", "accepted"]),
          ne(users.id, userId),
        ),
      )
      .orderBy(asc(users.email), asc(events.dateFrom), asc(participants.lastName))
      .all();
    const byOwner = new Map<string, typeof withdrawn>();
    for (const row of withdrawn) byOwner.set(row.ownerEmail, [...(byOwner.get(row.ownerEmail) ?? []), row]);
    for (const [ownerEmail, rows] of byOwner) {
      // The account's name and address go with it: whoever refunds needs someone to ask (its
      // data, the SEPA mandate's IBAN included, is deleted in this transaction).
      const titles = [...new Set(rows.map((r) => r.eventTitle))];
      queueMail(tx, {
        to: ownerEmail,
        subject: `${rows.length === 1 ? "Anmeldung" : "Anmeldungen"} zurückgezogen: ${titles.join(", ")}`,
        text: [
          `Hallo ${rows[0].ownerFirstName},`,
          "",
          `das Konto von ${account.firstName} ${account.lastName} (${account.email}) wurde gelöscht. Damit ${rows.length === 1 ? "ist diese Anmeldung" : "sind diese Anmeldungen"} zu deinen Veranstaltungen zurückgezogen:`,
          "",
          ...rows.map((r) => `- ${r.childFirstName} ${r.childLastName}: ${r.eventTitle} (ab ${formatIsoDate(r.eventDate)})${withdrawnState(r)}`),
          "",
          ...(rows.some((r) => r.paid && !r.waiting) ? [`Für die Rückzahlung frag bitte unter ${account.email} nach der Bankverbindung; die Daten des Kontos sind gelöscht.`, ""] : []),
          "Frei gewordene Plätze gehen als Angebot an die Warteliste, sofern dort jemand wartet.",
          "",
          GREETING.du,
        ].join("\n"),
      });
    }
    const heldPlacesAt = tx
      .selectDistinct({ eventId: registrations.eventId })
      .from(registrations)
      .where(eq(registrations.userId, userId))
      .all();
    // Mails still waiting for this account (an offer's reminder, a retry) would reach an account
    // that is gone, about registrations that are gone. A "Zahlung eingegangen" that waits its ten
    // minutes goes with the registration (payment-mails.server.ts).
    withdrawMailsTo(tx, account.email);
    tx.delete(users).where(eq(users.id, userId)).run();
    // Places the deleted account's children held go to the waiting lists.
    for (const { eventId } of heldPlacesAt) offerFreePlaces(tx, eventId, now);
    return { ok: true as const };
  });
}
