// The mail outbox. A mail is written to mail_outbox inside the transaction of the change that
// causes it (queueMail), so it is sent exactly when the change is committed. The mail worker
// delivers it (mail-delivery.server.ts).
import { and, eq } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import { bound, preparedQuery, rawSqlite, type Queryable } from "./db.server";
import type { GirocodeAttachment } from "./girocode.server";
import { kickMailWorker } from "./mail-delivery.server";

/** A stored file sent along (an event e-mail's attachments). */
export type FileAttachment = {
  filename: string;
  /** Path relative to UPLOADS_DIR. */
  path: string;
  contentType?: string;
};

/** A file, or a GiroCode the mail worker draws when it delivers (girocode.server.ts). */
export type MailAttachment = FileAttachment | GirocodeAttachment;

export type MailMessage = {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Where an answer goes; without it, to the sender (MAIL_FROM). */
  replyTo?: string;
};

/**
 * The outbox's insert, built once per connection: building it took drizzle longer than SQLite
 * took to run it (about 0.08 ms of each enrolment's transaction, under the write lock, in a
 * profiled burst; decision 0017).
 */
const insertMail = preparedQuery((database) =>
  database
    .insert(mailOutbox)
    .values({
      recipients: bound("recipients"),
      subject: bound("subject"),
      text: bound("text"),
      html: bound("html"),
      attachments: bound("attachments"),
      replyTo: bound("replyTo"),
      nextAttemptAt: bound("nextAttemptAt"),
    })
    .returning({ id: mailOutbox.id })
    .prepare(),
);

/** A mail's outbox fields as they are stored (addresses and attachments as JSON). */
function storedMail(message: MailMessage) {
  const recipients = (Array.isArray(message.to) ? message.to : [message.to]).map((a) => a.trim()).filter(Boolean);
  if (recipients.length === 0) throw new Error("queueMail: no recipient");
  return {
    recipients: JSON.stringify(recipients),
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
    replyTo: message.replyTo ?? null,
  };
}

/**
 * The greeting every mail to a person ends with, in the form of address of the screen that
 * caused it (DECISIONS.md 'Form of address').
 */
export const GREETING = { du: "Viele Grüße\nDein Lagerfeuer-Team", sie: "Viele Grüße\nIhr Lagerfeuer-Team" } as const;

/**
 * Writes a mail to the outbox; call it inside the transaction of the change it reports (named by
 * `_tx`; the app's transactions are all on its one connection, where the kept insert runs).
 */
export function queueMail(_tx: Queryable, message: MailMessage, { notBefore }: { notBefore?: Date } = {}) {
  const fields = storedMail(message);
  if (!rawSqlite().inTransaction) throw new Error("queueMail: only inside the transaction of the change");
  // A later start is a date in the outbox, which the mail worker's polls meet (no timer to lose).
  const row = insertMail().get({ ...fields, nextAttemptAt: notBefore?.getTime() ?? Date.now() })!;
  // Deliver soon after the surrounding transaction commits, not at the next poll.
  setTimeout(() => kickMailWorker(), 0);
  return row.id;
}

/**
 * Takes back every mail to `to` alone that still waits in the outbox (held back, or waiting for a
 * retry): the account it was for is gone. One the mail worker is sending right now goes.
 */
export function withdrawMailsTo(tx: Queryable, to: string) {
  const { recipients } = storedMail({ to, subject: "", text: "" });
  return tx.delete(mailOutbox).where(and(eq(mailOutbox.recipients, recipients), eq(mailOutbox.status, "pending"))).run().changes;
}

/**
 * Writes many mails at once (an event e-mail: one mail per address), in multi-row inserts inside
 * the caller's transaction. Returns the outbox ids in the order of `messages`.
 */
export function queueMails(tx: Queryable, messages: MailMessage[]) {
  const now = new Date();
  const ids: number[] = [];
  for (let start = 0; start < messages.length; start += 500) {
    const rows = messages.slice(start, start + 500).map((message) => ({ ...storedMail(message), nextAttemptAt: now }));
    // Ids are given in the order of the VALUES list; RETURNING itself promises no order.
    const inserted = tx.insert(mailOutbox).values(rows).returning({ id: mailOutbox.id }).all();
    ids.push(...inserted.map((r) => r.id).sort((a, b) => a - b));
  }
  if (ids.length > 0) setTimeout(() => kickMailWorker(), 0);
  return ids;
}
