// Deleting an upcoming event cancels it: every family with a child still in it (a place, an open
// registration, the waiting list), every helper still in it (accepted or applying) and the other
// lead persons are told, one mail per address, in the transaction that deletes it (DECISIONS.md:
// parents are told when a registration is cancelled). The person deleting it is not. Its own
// e-mails still waiting to go out are taken back.
import { and, asc, eq, gt, inArray, ne } from "drizzle-orm";
import { eventHelpers, eventMailRecipients, eventMails, eventOwners, events, mailOutbox, participants, registrations, users } from "../../db/schema";
import type { CancellationAudience } from "~/lib/cancellation-notice";
import { formatIsoDate } from "~/lib/dates";
import { joinNames } from "~/lib/names";
import { owes } from "~/lib/registration-machine";
import type { Queryable } from "~/services/db.server";
import { GREETING, queueMail } from "~/services/mail.server";

// 'Sie', as the delete dialog that causes it (DECISIONS.md: a mail uses the form of its screen).
type Told = { firstName: string; children: string[]; paidFor: string[]; owing: boolean; helper: "accepted" | "pending" | null; lead: boolean };

/** Who a cancellation tells, one entry per address; null for an event that has begun (no one). */
function cancellationRecipients(tx: Queryable, eventId: number, actor: { id: number } | null, now: Date) {
  const notActor = actor ? ne(users.id, actor.id) : undefined;
  const event = tx
    .select({ title: events.title, dateFrom: events.dateFrom })
    .from(events)
    .where(and(eq(events.id, eventId), gt(events.startsAt, now)))
    .get();
  if (!event) return null;
  const children = tx
    .select({
      email: users.email,
      firstName: users.firstName,
      childFirstName: participants.firstName,
      childLastName: participants.lastName,
      applicationStatus: registrations.applicationStatus,
      waitingListPosition: registrations.waitingListPosition,
      offerExpiresAt: registrations.offerExpiresAt,
      paid: registrations.paid,
      amountCents: registrations.amountCents,
    })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(and(eq(registrations.eventId, eventId), inArray(registrations.applicationStatus, ["open", "accepted"]), notActor))
    .orderBy(asc(registrations.id))
    .all();
  const helpers = tx
    .select({ email: users.email, firstName: users.firstName, status: eventHelpers.status })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(eq(eventHelpers.eventId, eventId), inArray(eventHelpers.status, ["accepted", "pending"]), notActor))
    .all();
  const leads = tx
    .select({ email: users.email, firstName: users.firstName })
    .from(eventOwners)
    .innerJoin(users, eq(users.id, eventOwners.userId))
    .where(and(eq(eventOwners.eventId, eventId), notActor))
    .all();

  const told = new Map<string, Told>();
  const person = (email: string, firstName: string) => {
    const known = told.get(email) ?? { firstName, children: [], paidFor: [], owing: false, helper: null, lead: false };
    told.set(email, known);
    return known;
  };
  for (const c of children) {
    const family = person(c.email, c.firstName);
    const name = `${c.childFirstName} ${c.childLastName}`;
    family.children.push(`${name}${c.waitingListPosition === null ? "" : " (Warteliste)"}`);
    // A payment is spoken of only where one was made or is owed: not for a free place, not for
    // the waiting list.
    if (c.paid) family.paidFor.push(name);
    family.owing ||= owes(c);
  }
  for (const h of helpers) person(h.email, h.firstName).helper = h.status === "accepted" ? "accepted" : "pending";
  for (const l of leads) person(l.email, l.firstName).lead = true;
  return { event, told };
}

/**
 * What the delete dialog says before it (read-only): how many addresses a cancellation would
 * tell, each once, as a family (a child in it), else a helper, else a lead person; null when the
 * event has begun and no one is told.
 */
export function cancellationAudience(tx: Queryable, eventId: number, actor: { id: number }, now = new Date()): CancellationAudience | null {
  const recipients = cancellationRecipients(tx, eventId, actor, now);
  if (!recipients) return null;
  const audience: CancellationAudience = { families: 0, helpers: 0, leads: 0 };
  for (const { children, helper } of recipients.told.values()) {
    if (children.length > 0) audience.families++;
    else if (helper) audience.helpers++;
    else audience.leads++;
  }
  return audience;
}

/** Queues the cancellation mails of an event that has not begun; returns how many. */
export function tellEventCancelled(tx: Queryable, eventId: number, actor: { id: number; email: string } | null, now = new Date()) {
  const recipients = cancellationRecipients(tx, eventId, actor, now);
  if (!recipients) return 0;
  const { event, told } = recipients;
  for (const [email, { firstName, children: names, paidFor, owing, helper, lead }] of told) {
    queueMail(tx, {
      to: email,
      subject: `Veranstaltung abgesagt: ${event.title}`,
      replyTo: actor?.email,
      text: [
        `Hallo ${firstName},`,
        "",
        `die Veranstaltung „${event.title}“ (ab ${formatIsoDate(event.dateFrom)}) wurde abgesagt und findet nicht statt.`,
        ...(names.length ? ["", "Damit sind diese Anmeldungen hinfällig:", ...names.map((n) => `- ${n}`)] : []),
        ...(helper === "accepted" ? ["", "Sie waren als Helfer*in eingetragen."] : []),
        ...(helper === "pending" ? ["", "Ihre Bewerbung als Helfer*in ist damit hinfällig."] : []),
        ...(lead ? ["", "Sie waren als Leitung eingetragen."] : []),
        "",
        paidFor.length
          ? `Ihre Zahlung für ${joinNames(paidFor)} ist schon bei uns eingegangen. Antworten Sie einfach auf diese E-Mail, damit wir sie zurückzahlen können, und auch bei Fragen.`
          : owing
            ? "Wenn Sie schon bezahlt haben oder Fragen haben, antworten Sie einfach auf diese E-Mail."
            : "Bei Fragen antworten Sie einfach auf diese E-Mail.",
        "",
        GREETING.sie,
      ].join("\n"),
    });
  }
  return told.size;
}

/**
 * Takes back the deliveries of the event's e-mails that still wait in the outbox (a retry
 * included): with the event gone they would arrive after its cancellation, their attachments
 * deleted with it. One the mail worker holds right now stays; returns how many went.
 */
export function withdrawEventMails(tx: Queryable, eventId: number) {
  const deliveries = tx
    .select({ id: eventMailRecipients.outboxId })
    .from(eventMailRecipients)
    .innerJoin(eventMails, eq(eventMails.id, eventMailRecipients.mailId))
    .where(eq(eventMails.eventId, eventId));
  return tx.delete(mailOutbox).where(and(eq(mailOutbox.status, "pending"), inArray(mailOutbox.id, deliveries))).run().changes;
}
