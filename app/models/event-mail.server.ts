// The event e-mail (spec §2.9; DECISIONS.md 'Who gets the event e-mail', 'Event e-mail log'):
// the recipients, the send (one outbox mail per address, written in one transaction with the
// log), the log with each address's state, and 'Erneut senden' for the failed ones.
import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import {
  eventHelpers,
  eventMailRecipients,
  eventMails,
  events,
  files,
  guardians,
  mailOutbox,
  registrations,
  users,
  type EventMailAudience,
} from "../../db/schema";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { db, writeTransaction, type Queryable } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { queueMails, type FileAttachment } from "~/services/mail.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";
import type { SessionUser } from "./user.server";
import { hasAmountDue } from "./registration-change.server";

export type StoredAttachment = FileAttachment & { size: number; key: string };

/** The families of registrations matching `where` plus the accepted helpers, as requested. */
function familyAddresses(database: Queryable, eventId: number, audience: EventMailAudience) {
  const status =
    audience === "waiting"
      ? and(eq(registrations.applicationStatus, "open"), isNotNull(registrations.waitingListPosition))
      : audience === "unpaid"
        ? and(eq(registrations.applicationStatus, "accepted"), eq(registrations.paid, false), hasAmountDue)
        : eq(registrations.applicationStatus, "accepted");
  return database
    .select({ account: users.email, guardian: guardians.email })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .leftJoin(guardians, eq(guardians.id, registrations.guardianId))
    .where(and(eq(registrations.eventId, eventId), status))
    .all()
    .flatMap((r) => [r.account, r.guardian ?? ""]);
}

function helperAddresses(database: Queryable, eventId: number) {
  return database
    .select({ email: users.email })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.status, "accepted")))
    .all()
    .map((r) => r.email);
}

/**
 * The addresses an event e-mail goes to, each once (compared case-insensitively), sorted:
 * account holders and guardians of accepted registrations and accepted helpers ('both'); only
 * one of the two; the families on the waiting list; the families of accepted, unpaid ones.
 */
export function mailAddresses(eventId: number, audience: EventMailAudience, database: Queryable = db) {
  const addresses = [
    ...(audience === "helpers" ? [] : familyAddresses(database, eventId, audience === "both" ? "participants" : audience)),
    ...(audience === "both" || audience === "helpers" ? helperAddresses(database, eventId) : []),
  ];
  const unique = new Set<string>();
  for (const address of addresses) {
    // One address each: a stored text that is a list or a group would reach others.
    const clean = normalizeEmail(address ?? "");
    if (isValidEmail(clean)) unique.add(clean);
  }
  return [...unique].sort();
}

/** How many registrations are open (with a place or waiting): no audience of the event mail reaches their families. */
export function openRegistrations(eventId: number, database: Queryable = db) {
  return database.select({ n: sql<number>`count(*)` }).from(registrations).where(and(eq(registrations.eventId, eventId), eq(registrations.applicationStatus, "open"))).get()?.n ?? 0;
}

/** How many addresses each choice reaches, for the form. */
export function recipientCounts(eventId: number) {
  const audiences = ["both", "participants", "helpers", "waiting", "unpaid"] as const;
  return Object.fromEntries(audiences.map((a) => [a, mailAddresses(eventId, a).length])) as Record<EventMailAudience, number>;
}

/**
 * The text with its signature: who wrote it for which event (mail review: only the Reply-To said
 * so), and where an answer goes while the writer's account exists.
 */
function mailText(text: string, event: { id: number; title: string }, senderName: string, answered: boolean) {
  const answer = answered ? `Eine Antwort auf diese E-Mail geht an ${senderName}.\n` : "";
  return `${text}\n\n-- \n${senderName} für „${event.title}“\n${answer}${settings().appUrl}/freizeit/${event.id}\n`;
}

/**
 * Sends: the log entry, its recipients and one outbox mail per address, in one transaction (a
 * crash leaves either all or nothing). The recipients are read inside it. Returns the count, or
 * null when the choice reaches nobody.
 */
export function sendEventMail(
  event: { id: number; title: string },
  sender: SessionUser,
  input: { subject: string; text: string; audience: EventMailAudience; attachments: StoredAttachment[] },
  submissionKey: string | null = null,
) {
  return writeTransaction((tx) => {
    // The same form again (a double click, a retry on a weak line): the mail went out once.
    if (earlierSubmission(tx, submissionKey, sender.id)) return { repeated: true as const };
    const addresses = mailAddresses(event.id, input.audience, tx);
    if (addresses.length === 0) return null;
    const attachments = input.attachments.map(({ filename, path, contentType, size }) => ({ filename, path, contentType, size }));
    const senderName = `${sender.firstName} ${sender.lastName}`;
    const mail = tx
      .insert(eventMails)
      .values({
        eventId: event.id,
        senderId: sender.id,
        senderName,
        subject: input.subject,
        text: input.text,
        audience: input.audience,
        attachments: attachments.length ? JSON.stringify(attachments) : null,
      })
      .returning({ id: eventMails.id })
      .get();
    for (const file of input.attachments) {
      tx.insert(files)
        .values({ key: file.key, displayName: file.filename, mimeType: file.contentType ?? "application/octet-stream", size: file.size, kind: "mail_attachment", eventId: event.id })
        .run();
    }
    const mailAttachments = input.attachments.map(({ filename, path, contentType }) => ({ filename, path, contentType }));
    const outboxIds = queueMails(
      tx,
      // An answer goes to the lead person who wrote it (the sender's address is MAIL_FROM's no-reply).
      addresses.map((to) => ({ to, subject: input.subject, text: mailText(input.text, event, senderName, true), attachments: mailAttachments, replyTo: sender.email })),
    );
    for (let start = 0; start < addresses.length; start += 500) {
      tx.insert(eventMailRecipients)
        .values(addresses.slice(start, start + 500).map((email, i) => ({ mailId: mail.id, email, outboxId: outboxIds[start + i] })))
        .run();
    }
    recordSubmission(tx, submissionKey, sender.id, `/freizeit/${event.id}`);
    return { mailId: mail.id, count: addresses.length, repeated: false as const };
  });
}

/** Queues the failed addresses of one mail of the event again; returns how many. */
export function resendFailed(eventId: number, mailId: number) {
  return writeTransaction((tx) => {
    const mail = tx.select().from(eventMails).where(and(eq(eventMails.id, mailId), eq(eventMails.eventId, eventId))).get();
    if (!mail) return null;
    const event = tx.select({ id: events.id, title: events.title }).from(events).where(eq(events.id, eventId)).get()!;
    const failed = tx
      .select({ id: eventMailRecipients.id, email: eventMailRecipients.email })
      .from(eventMailRecipients)
      .leftJoin(mailOutbox, eq(mailOutbox.id, eventMailRecipients.outboxId))
      .where(and(eq(eventMailRecipients.mailId, mailId), or(eq(mailOutbox.status, "failed"), isNull(eventMailRecipients.outboxId))))
      .all();
    if (failed.length === 0) return 0;
    const attachments = mail.attachments
      ? (JSON.parse(mail.attachments) as StoredAttachment[]).map(({ filename, path, contentType }) => ({ filename, path, contentType }))
      : undefined;
    // Answers still go to whoever wrote it (a deleted account: to nobody but MAIL_FROM).
    const replyTo = mail.senderId === null ? undefined : tx.select({ email: users.email }).from(users).where(eq(users.id, mail.senderId)).get()?.email;
    const ids = queueMails(
      tx,
      failed.map((r) => ({ to: r.email, subject: mail.subject, text: mailText(mail.text, event, mail.senderName, replyTo !== undefined), attachments, replyTo })),
    );
    failed.forEach((r, i) => tx.update(eventMailRecipients).set({ outboxId: ids[i] }).where(eq(eventMailRecipients.id, r.id)).run());
    return failed.length;
  });
}

export type RecipientState = "queued" | "sent" | "failed";
export type MailLogEntry = {
  id: number;
  subject: string;
  senderName: string;
  createdAt: string;
  attachments: string[];
  recipients: { email: string; state: RecipientState; error: string | null }[];
};

/** The event's mails, newest first, each with every address and its state (two queries). */
export function eventMailLog(eventId: number, limit = 50): MailLogEntry[] {
  const mails = db
    .select({ id: eventMails.id, subject: eventMails.subject, senderName: eventMails.senderName, createdAt: eventMails.createdAt, attachments: eventMails.attachments })
    .from(eventMails)
    .where(eq(eventMails.eventId, eventId))
    .orderBy(desc(eventMails.createdAt), desc(eventMails.id))
    .limit(limit)
    .all();
  if (mails.length === 0) return [];
  const rows = db
    .select({ mailId: eventMailRecipients.mailId, email: eventMailRecipients.email, status: mailOutbox.status, error: mailOutbox.lastError })
    .from(eventMailRecipients)
    .leftJoin(mailOutbox, eq(mailOutbox.id, eventMailRecipients.outboxId))
    .where(inArray(eventMailRecipients.mailId, mails.map((m) => m.id)))
    .orderBy(eventMailRecipients.email)
    .all();
  return mails.map((m) => ({
    id: m.id,
    subject: m.subject,
    senderName: m.senderName,
    createdAt: m.createdAt.toISOString(),
    attachments: m.attachments ? (JSON.parse(m.attachments) as StoredAttachment[]).map((a) => a.filename) : [],
    recipients: rows
      .filter((r) => r.mailId === m.id)
      .map((r) => ({
        email: r.email,
        state: r.status === "sent" ? "sent" : r.status === "failed" || r.status === null ? "failed" : "queued",
        error: r.status === "sent" ? null : r.status === null ? "Versand nicht mehr nachvollziehbar" : r.error,
      })),
  }));
}
