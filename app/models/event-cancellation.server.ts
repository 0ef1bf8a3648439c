// Deleting an upcoming event cancels it: every family with a child still in it (a place, an open
// registration, the waiting list) and every helper still in it (accepted or applying) is told, one
// mail per address, in the transaction that deletes it (DECISIONS.md: parents are told when a
// registration is cancelled).
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { eventHelpers, events, participants, registrations, users } from "../../db/schema";
import { formatIsoDate } from "~/lib/dates";
import type { Queryable } from "~/services/db.server";
import { queueMail } from "~/services/mail.server";

type Told = { firstName: string; children: string[]; helper: "accepted" | "pending" | null };

/** Queues the cancellation mails of an event that has not begun; returns how many. */
export function tellEventCancelled(tx: Queryable, eventId: number, replyTo: string | null, now = new Date()) {
  const event = tx
    .select({ title: events.title, dateFrom: events.dateFrom })
    .from(events)
    .where(and(eq(events.id, eventId), gt(events.startsAt, now)))
    .get();
  if (!event) return 0;
  const children = tx
    .select({
      email: users.email,
      firstName: users.firstName,
      childFirstName: participants.firstName,
      childLastName: participants.lastName,
      waiting: registrations.waitingListPosition,
    })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(and(eq(registrations.eventId, eventId), inArray(registrations.applicationStatus, ["open", "accepted"])))
    .orderBy(asc(registrations.id))
    .all();
  const helpers = tx
    .select({ email: users.email, firstName: users.firstName, status: eventHelpers.status })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(eq(eventHelpers.eventId, eventId), inArray(eventHelpers.status, ["accepted", "pending"])))
    .all();

  const told = new Map<string, Told>();
  const person = (email: string, firstName: string) => {
    const known = told.get(email) ?? { firstName, children: [], helper: null };
    told.set(email, known);
    return known;
  };
  for (const c of children) {
    person(c.email, c.firstName).children.push(`${c.childFirstName} ${c.childLastName}${c.waiting === null ? "" : " (Warteliste)"}`);
  }
  for (const h of helpers) person(h.email, h.firstName).helper = h.status === "accepted" ? "accepted" : "pending";

  for (const [email, { firstName, children: names, helper }] of told) {
    queueMail(tx, {
      to: email,
      subject: `Veranstaltung abgesagt: ${event.title}`,
      replyTo: replyTo ?? undefined,
      text: [
        `Hallo ${firstName},`,
        "",
        `die Veranstaltung „${event.title}“ (ab ${formatIsoDate(event.dateFrom)}) wurde abgesagt und findet nicht statt.`,
        ...(names.length ? ["", "Damit sind diese Anmeldungen hinfällig:", ...names.map((n) => `- ${n}`)] : []),
        ...(helper === "accepted" ? ["", "Du warst als Helfer*in eingetragen."] : []),
        ...(helper === "pending" ? ["", "Deine Bewerbung als Helfer*in ist damit hinfällig."] : []),
        "",
        names.length
          ? "Wenn du schon bezahlt hast oder Fragen hast, antworte einfach auf diese E-Mail."
          : "Bei Fragen antworte einfach auf diese E-Mail.",
        "",
        "Viele Grüße",
        "Dein Lagerfeuer-Team",
      ].join("\n"),
    });
  }
  return told.size;
}
