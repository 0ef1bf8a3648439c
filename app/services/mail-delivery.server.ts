// Delivery of the mail outbox (mail.server.ts queues): the mail worker of the process that runs
// the jobs sends every due mail over SMTP when SMTP_URL is set, otherwise as an .eml file in
// MAIL_DIR. Failures are retried with growing pauses; a restart picks up where it stopped.
import cluster from "node:cluster";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, lte, or } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { mailOutbox } from "../../db/schema";
import { bookkeepingTransaction } from "./db.server";
import { settings } from "./env.server";
import { errorCode, probeFolder } from "./folders.server";
import { girocodePng } from "./girocode.server";
import { logError, logNotice } from "./log.server";
import type { MailAttachment } from "./mail.server";

export const MAX_ATTEMPTS = 12;
/** How long a claimed mail stays with one worker before another may try it again. */
const CLAIM_MS = 2 * 60_000;
const BATCH_SIZE = 20;

/** Pause before the next try after `attempts` failed tries: 30 s, 1 min, 2 min … at most 1 h. */
export function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

export type Deliver = (mail: {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; path?: string; content?: Buffer; contentType?: string }[];
  replyTo?: string;
}) => Promise<void>;

/**
 * How long an SMTP server may keep us waiting: to connect, to greet, and for each answer. Mails go
 * out one after another, so a server that accepts and then says nothing held every mail back for
 * nodemailer's default of ten minutes (operations review).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };

/** The delivery of this process: SMTP when configured, otherwise files in MAIL_DIR. */
export function createDelivery(options: { smtpUrl?: string; mailDir: string; timeouts?: typeof SMTP_TIMEOUTS }): Deliver {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport({ url: options.smtpUrl, ...(options.timeouts ?? SMTP_TIMEOUTS) });
    return async (mail) => {
      await transport.sendMail({ ...mail, messageId: undefined });
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return async (mail) => {
    const info = await transport.sendMail(mail);
    mkdirSync(options.mailDir, { recursive: true, mode: 0o700 }); // parents' mail: the app user's alone
    const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${String(mail.id).padStart(6, "0")}.eml`;
    const target = path.join(options.mailDir, name);
    // Written under a temporary name first: whoever reads MAIL_DIR never sees half a mail.
    writeFileSync(`${target}.tmp`, info.message as Buffer);
    renameSync(`${target}.tmp`, target);
  };
}

/**
 * At start, without SMTP_URL: MAIL_DIR can be made and written, or the start ends naming it (a
 * mail folder that could not be written failed every mail silently, hours before giving up).
 */
export function checkMailDir(mailDir: string) {
  try {
    probeFolder(mailDir, 0o700); // parents' mail: the app user's alone
  } catch (error) {
    throw new Error(
      `Der Mail-Ordner ${mailDir} ist nicht beschreibbar (${errorCode(error)}). ` +
        "Bitte MAIL_DIR prüfen oder dem Benutzer des Servers Schreibrechte geben (oder SMTP_URL setzen).",
    );
  }
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
  /** Mails that failed this round and will be tried again, and the first one's reason. */
  const retrying = { count: 0, reason: "" };
  const done = () => {
    if (retrying.count > 0) {
      const what = retrying.count === 1 ? "1 Mail" : `${retrying.count} Mails`;
      logNotice("warn", `${what} nicht zugestellt, neuer Versuch später`, { failed: retrying.count, reason: retrying.reason });
    }
    return { sent, failed };
  };
  for (;;) {
    if (options.stopRequested?.()) break;
    const batch = claimDueMails(now, BATCH_SIZE);
    if (batch.length === 0) break;
    for (const [index, mail] of batch.entries()) {
      if (options.stopRequested?.()) {
        // Shutting down: the mail under way was finished; the rest goes back to the queue.
        releaseClaims(batch.slice(index).map((m) => m.id));
        return done();
      }
      const attempts = mail.attempts + 1;
      try {
        const attachments = mail.attachments
          ? (JSON.parse(mail.attachments) as MailAttachment[]).map((a) =>
              "girocode" in a ? { filename: a.filename, content: girocodePng(a.girocode), contentType: "image/png" } : { ...a, path: path.join(uploadsDir, a.path) },
            )
          : undefined;
        await deliver({
          id: mail.id,
          from,
          to: JSON.parse(mail.recipients) as string[],
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? undefined,
          attachments,
          replyTo: mail.replyTo ?? undefined,
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
              // From the failure, not the run's start: a try that took its timeout is not due at once.
              nextAttemptAt: new Date(Math.max(now.getTime(), Date.now()) + retryDelayMs(attempts)),
              lastError: String(error instanceof Error ? error.message : error).slice(0, 1000),
            })
            .where(eq(mailOutbox.id, mail.id))
            .run(),
        );
        failed++;
        // The server's answer without addresses: no personal data in the log (the outbox keeps it whole).
        const reason = String(error).replace(/[^\s<>"',;:()]+@[^\s<>"',;:()]+/g, "…");
        if (gaveUp) logNotice("error", `Mail nach ${attempts} Versuchen aufgegeben`, { mailId: mail.id, attempts, reason });
        else if (retrying.count++ === 0) retrying.reason = reason;
      }
    }
    if (batch.length < BATCH_SIZE) break;
  }
  return done();
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

function runOnce() {
  if (!worker.deliver) return;
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = deliverDueMails(worker.deliver, new Date(), { stopRequested: () => worker.stopping === true })
    .catch((error) => logError(error, undefined, "Mail-Versand fehlgeschlagen"))
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

/**
 * Delivers what is due now and then every MAIL_POLL_SECONDS (mail whose retry time has come;
 * a newly queued mail is delivered at once, kickMailWorker).
 */
export function startMailWorker(deliver: Deliver = createDelivery(settings())) {
  if (worker.timer) return;
  worker.stopping = false;
  worker.deliver = deliver;
  worker.timer = setInterval(runOnce, settings().mailPollMs);
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
