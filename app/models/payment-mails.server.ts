// The parents' "Zahlung eingegangen" mails (DECISIONS.md: parents are told when a payment is
// confirmed; one enrolment, one payment). Confirming a payment marks its registration with the
// time its mail is due, ten minutes later, so that a confirmation made by mistake can be taken
// back before anyone reads it. The scheduler's job writes one mail per account and event once the
// last of its marks is due: a family whose transfer paid for two children, confirmed child by
// child or by one button, reads one mail naming both. The marks are the deadline (in the
// database, not a timer); a registration deleted or taken back takes its mark along.
import { and, asc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import { events, participants, registrations, users } from "../../db/schema";
import { joinNames } from "~/lib/names";
import { db, writeTransaction } from "~/services/db.server";
import { mailParent, PAYMENT_RECEIVED } from "./registration-change.server";

/** How long the parent's mail about a confirmed payment waits, so that a mistake can be undone. */
export const PAYMENT_MAIL_DELAY_MS = 10 * 60_000;

/** What the leaders read after confirming (the flash). */
export const PAYMENT_MAIL_NOTE = `Die Eltern bekommen in ${PAYMENT_MAIL_DELAY_MS / 60_000} Minuten eine E-Mail`;

/** When the mail about a payment confirmed `now` goes out. */
export function paymentMailTime(now: Date) {
  return new Date(now.getTime() + PAYMENT_MAIL_DELAY_MS);
}

type Named = { firstName: string; lastName: string };

/** No two of them share a first name. */
const firstNamesTell = (children: Named[]) => new Set(children.map((c) => c.firstName)).size === children.length;

/** "Anna und Ben Muster" for siblings; "Anna Muster und Ben Beispiel" otherwise. */
export function childrenNamed(children: Named[]) {
  return new Set(children.map((c) => c.lastName)).size === 1 && firstNamesTell(children)
    ? `${joinNames(children.map((c) => c.firstName))} ${children[0].lastName}`
    : joinNames(children.map((c) => `${c.firstName} ${c.lastName}`));
}

/** The children by first name, as the parents' mails name them; in full when two share one. */
function firstNames(children: Named[]) {
  return joinNames(children.map((c) => (firstNamesTell(children) ? c.firstName : `${c.firstName} ${c.lastName}`)));
}

/**
 * Writes the payment mails that are due at `now`: one per account and event whose latest mark has
 * passed, naming its children in the order they were enrolled. Returns how many mails it wrote.
 */
export function sendPaymentMails(now = new Date()) {
  // Most minutes nothing is due: one read of the index, no write lock.
  const due = db.select({ id: registrations.id }).from(registrations).where(and(isNotNull(registrations.paymentMailAt), lte(registrations.paymentMailAt, now))).limit(1).get();
  if (!due) return 0;
  return writeTransaction((tx) => {
    const waiting = tx
      .select({
        id: registrations.id,
        userId: registrations.userId,
        eventId: registrations.eventId,
        at: registrations.paymentMailAt,
        paid: registrations.paid,
        firstName: participants.firstName,
        lastName: participants.lastName,
        parentEmail: users.email,
        parentFirstName: users.firstName,
        eventTitle: events.title,
        eventDateFrom: events.dateFrom,
      })
      .from(registrations)
      .innerJoin(participants, eq(participants.id, registrations.participantId))
      .innerJoin(users, eq(users.id, registrations.userId))
      .innerJoin(events, eq(events.id, registrations.eventId))
      .where(isNotNull(registrations.paymentMailAt))
      .orderBy(asc(registrations.id))
      .all();
    const families = new Map<string, typeof waiting>();
    for (const row of waiting) {
      const key = `${row.userId}:${row.eventId}`;
      const family = families.get(key);
      if (family) family.push(row);
      else families.set(key, [row]);
    }
    const cleared: number[] = [];
    let mails = 0;
    for (const children of families.values()) {
      // A child confirmed a minute ago keeps its siblings' mail for its own ten minutes.
      if (children.some((c) => c.at! > now)) continue;
      cleared.push(...children.map((c) => c.id));
      // Every way to take a payment back clears its mark; one left on an unpaid child says nothing.
      const paid = children.filter((c) => c.paid);
      if (!paid.length) continue;
      const [first] = paid;
      mailParent(tx, first, `${PAYMENT_RECEIVED}: ${childrenNamed(paid)} – ${first.eventTitle}`, [
        `die Zahlung für ${firstNames(paid)} ist bei uns eingegangen. Vielen Dank!`,
      ]);
      mails++;
    }
    if (cleared.length) tx.update(registrations).set({ paymentMailAt: null }).where(inArray(registrations.id, cleared)).run();
    return mails;
  });
}
