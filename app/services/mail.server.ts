// The mail outbox. A mail is written to mail_outbox inside the transaction of the change that
// causes it (queueMail), so it is sent exactly when the change is committed. A worker in the
// server process delivers it: over SMTP when SMTP_URL is set, otherwise as an .eml file in
// MAIL_DIR. Failures are retried with growing pauses; a restart picks up where it stopped.
import cluster from "node:cluster";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { mailOutbox } from "../../db/schema";
import { bookkeepingTransaction, preparedQuery, rawSqlite, type Queryable } from "./db.server";
import { settings } from "./env.server";

export type MailAttachment = {
  filename: string;
  /** Path relative to UPLOADS_DIR. */
  path: string;
  contentType?: string;
};

export type MailMessage = {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};

export const MAX_ATTEMPTS = 12;
/** How long a claimed mail stays with one worker before another may try it again. */
const CLAIM_MS = 2 * 60_000;
const BATCH_SIZE = 20;

/** Pause before the next try after `attempts` failed tries: 30 s, 1 min, 2 min … at most 1 h. */
export function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/** A placeholder whose value is bound exactly as given (as SQLite stores it). */
const bound = (name: string) => sql`${sql.placeholder(name)}`;

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
      nextAttemptAt: bound("nextAttemptAt"),
    })
    .returning({ id: mailOutbox.id })
    .prepare(),
);

/**
 * Writes a mail to the outbox; call it inside the transaction of the change it reports (named by
 * `_tx`; the app's transactions are all on its one connection, where the kept insert runs).
 */
export function queueMail(_tx: Queryable, message: MailMessage) {
  const recipients = (Array.isArray(message.to) ? message.to : [message.to]).map((a) => a.trim()).filter(Boolean);
  if (recipients.length === 0) throw new Error("queueMail: no recipient");
  if (!rawSqlite().inTransaction) throw new Error("queueMail: only inside the transaction of the change");
  const row = insertMail().get({
    recipients: JSON.stringify(recipients),
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
    nextAttemptAt: Date.now(),
  })!;
  // Deliver soon after the surrounding transaction commits, not at the next poll.
  setTimeout(() => kickMailWorker(), 0);
  return row.id;
}

/**
 * Writes many mails at once (an event e-mail: one mail per address), in multi-row inserts inside
 * the caller's transaction. Returns the outbox ids in the order of `messages`.
 */
export function queueMails(tx: Queryable, messages: MailMessage[]) {
  const now = new Date();
  const ids: number[] = [];
  for (let start = 0; start < messages.length; start += 500) {
    const rows = messages.slice(start, start + 500).map((message) => {
      const recipients = (Array.isArray(message.to) ? message.to : [message.to]).map((a) => a.trim()).filter(Boolean);
      if (recipients.length === 0) throw new Error("queueMails: no recipient");
      return {
        recipients: JSON.stringify(recipients),
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
        nextAttemptAt: now,
      };
    });
    // Ids are given in the order of the VALUES list; RETURNING itself promises no order.
    const inserted = tx.insert(mailOutbox).values(rows).returning({ id: mailOutbox.id }).all();
    ids.push(...inserted.map((r) => r.id).sort((a, b) => a - b));
  }
  if (ids.length > 0) setTimeout(() => kickMailWorker(), 0);
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Delivery

export type Deliver = (mail: {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; path: string; contentType?: string }[];
}) => Promise<void>;

/** The delivery of this process: SMTP when configured, otherwise files in MAIL_DIR. */
export function createDelivery(options: { smtpUrl?: string; mailDir: string }): Deliver {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return async (mail) => {
      await transport.sendMail({ ...mail, messageId: undefined });
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return async (mail) => {
    const info = await transport.sendMail(mail);
    mkdirSync(options.mailDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${String(mail.id).padStart(6, "0")}.eml`;
    const target = path.join(options.mailDir, name);
    // Written under a temporary name first: whoever reads MAIL_DIR never sees half a mail.
    writeFileSync(`${target}.tmp`, info.message as Buffer);
    renameSync(`${target}.tmp`, target);
  };
}

type Claimed = typeof mailOutbox.$inferSelect;

/** Takes due mails for this worker: pending ones whose time has come, and abandoned claims. */
function claimDueMails(now: Date, limit: number): Claimed[] {
  return bookkeepingTransaction((tx) => {
    const due = tx
      .select()
      .from(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)),
          and(eq(mailOutbox.status, "sending"), lte(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(limit)
      .all();
    if (due.length === 0) return [];
    tx.update(mailOutbox)
      .set({ status: "sending", lockedUntil: new Date(now.getTime() + CLAIM_MS) })
      .where(inArray(mailOutbox.id, due.map((m) => m.id)))
      .run();
    return due;
  });
}

/**
 * Delivers every mail that is due at `now`. Returns how many went out and how many failed.
 * Safe to call from several places: a mail is claimed before it is sent.
 */
export async function deliverDueMails(deliver: Deliver, now = new Date(), options: { stopRequested?: () => boolean } = {}) {
  const from = settings().mailFrom;
  const uploadsDir = settings().uploadsDir;
  let sent = 0;
  let failed = 0;
  for (;;) {
    if (options.stopRequested?.()) break;
    const batch = claimDueMails(now, BATCH_SIZE);
    if (batch.length === 0) break;
    for (const [index, mail] of batch.entries()) {
      if (options.stopRequested?.()) {
        // Shutting down: the mail under way was finished; the rest goes back to the queue.
        releaseClaims(batch.slice(index).map((m) => m.id));
        return { sent, failed };
      }
      const attempts = mail.attempts + 1;
      try {
        const attachments = mail.attachments
          ? (JSON.parse(mail.attachments) as MailAttachment[]).map((a) => ({
              ...a,
              path: path.join(uploadsDir, a.path),
            }))
          : undefined;
        await deliver({
          id: mail.id,
          from,
          to: JSON.parse(mail.recipients) as string[],
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? undefined,
          attachments,
        });
        bookkeepingTransaction((tx) =>
          tx.update(mailOutbox)
            .set({ status: "sent", attempts, sentAt: new Date(), lockedUntil: null, lastError: null })
            .where(eq(mailOutbox.id, mail.id))
            .run(),
        );
        sent++;
      } catch (error) {
        const gaveUp = attempts >= MAX_ATTEMPTS;
        bookkeepingTransaction((tx) =>
          tx.update(mailOutbox)
            .set({
              status: gaveUp ? "failed" : "pending",
              attempts,
              lockedUntil: null,
              nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
              lastError: String(error instanceof Error ? error.message : error).slice(0, 1000),
            })
            .where(eq(mailOutbox.id, mail.id))
            .run(),
        );
        failed++;
        if (gaveUp) console.error(`Mail ${mail.id} nach ${attempts} Versuchen aufgegeben: ${String(error)}`);
      }
    }
    if (batch.length < BATCH_SIZE) break;
  }
  return { sent, failed };
}

/** Hands claimed but unsent mails back to the queue, due at once for the next worker. */
function releaseClaims(ids: number[]) {
  if (ids.length === 0) return;
  bookkeepingTransaction((tx) =>
    tx.update(mailOutbox)
      .set({ status: "pending", lockedUntil: null })
      .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.status, "sending")))
      .run(),
  );
}

// ---------------------------------------------------------------------------------------------
// The worker of the server process

type WorkerState = { timer?: NodeJS.Timeout; running?: Promise<unknown>; again?: boolean; deliver?: Deliver; stopping?: boolean };
const worker = ((globalThis as unknown as { __lagerfeuerMailWorker?: WorkerState }).__lagerfeuerMailWorker ??= {});

const POLL_MS = 2_000;

function runOnce() {
  if (!worker.deliver) return;
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = deliverDueMails(worker.deliver, new Date(), { stopRequested: () => worker.stopping === true })
    .catch((error) => console.error("Mail-Versand fehlgeschlagen:", error))
    .finally(() => {
      worker.running = undefined;
      if (worker.again) {
        worker.again = false;
        runOnce();
      }
    });
}

/** What a worker of the cluster tells the primary when it has queued mail; the primary passes it
 * on to the jobs process (server.mjs). */
export const MAIL_QUEUED = "lagerfeuer:mail-queued";
let tellingPrimary = false;

/**
 * Delivers now rather than at the next poll (called after a mail is queued). A worker of the
 * cluster delivers nothing itself: it tells the primary (once for all mails queued in the same
 * moment), which passes it on to the jobs process, whose mail worker delivers.
 */
export function kickMailWorker() {
  if (worker.deliver || !cluster.isWorker || !process.send) return runOnce();
  if (tellingPrimary) return;
  tellingPrimary = true;
  setImmediate(() => {
    tellingPrimary = false;
    if (process.connected) process.send?.({ type: MAIL_QUEUED });
  });
}

export function startMailWorker(deliver: Deliver = createDelivery(settings())) {
  if (worker.timer) return;
  worker.stopping = false;
  worker.deliver = deliver;
  worker.timer = setInterval(runOnce, POLL_MS);
  worker.timer.unref();
  runOnce();
}

/** Stops polling and waits for the mail being delivered (graceful shutdown); mails not yet begun
 * stay in the queue for the next start. */
export async function stopMailWorker() {
  worker.stopping = true;
  if (worker.timer) clearInterval(worker.timer);
  worker.timer = undefined;
  worker.deliver = undefined;
  await worker.running;
}
