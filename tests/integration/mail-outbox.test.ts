import { readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mailOutbox, users } from "../../db/schema";
import { closeDatabase, db, writeTransaction } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { createDelivery, deliverDueMails, MAX_ATTEMPTS, retryDelayMs, SMTP_TIMEOUTS } from "~/services/mail-delivery.server";
import { queueMail } from "~/services/mail.server";
import { allowConsoleErrors, loggedErrors } from "../support/fixtures";
import { parseMail, readMailDir } from "../support/mail";
import { freePort, startSmtpServer } from "../support/smtp";

const message = {
  to: "eltern@example.org",
  subject: "Anmeldung bestätigt",
  text: "Hallo, die Anmeldung für das Zeltlager ist bestätigt. Grüße, euer Team",
};

const later = (ms: number) => new Date(Date.now() + ms);

function outbox() {
  return db.select().from(mailOutbox).all();
}

afterEach(() => {
  db.delete(mailOutbox).run();
});

describe("the mail outbox", () => {
  it("queues a mail with the change that causes it, and not at all when that change fails", () => {
    writeTransaction((tx) => {
      queueMail(tx, message);
    });
    expect(outbox()).toHaveLength(1);

    expect(() =>
      writeTransaction((tx) => {
        queueMail(tx, { ...message, subject: "Soll nie ankommen" });
        tx.insert(users).values({ email: "x@example.org", firstName: "A", lastName: "B", passwordHash: "h" }).run();
        tx.insert(users).values({ email: "x@example.org", firstName: "A", lastName: "B", passwordHash: "h" }).run();
      }),
    ).toThrow(/UNIQUE/);
    expect(outbox().map((m) => m.subject)).toEqual(["Anmeldung bestätigt"]);
  });

  it("writes every field of the mail as given, due at once; refuses outside a transaction", () => {
    const before = Date.now();
    const attachments = [{ filename: "Packliste.pdf", path: "events/1/packliste.pdf", contentType: "application/pdf" }];
    const [first, second] = writeTransaction((tx) => [
      queueMail(tx, { ...message, to: [" a@example.org ", "b@example.org"], html: "<p>Hallo</p>", attachments }),
      queueMail(tx, message),
    ]);
    expect(second).toBe(first + 1);
    const [withAll, plain] = outbox();
    expect(withAll).toMatchObject({
      id: first,
      recipients: JSON.stringify(["a@example.org", "b@example.org"]),
      subject: message.subject,
      text: message.text,
      html: "<p>Hallo</p>",
      attachments: JSON.stringify(attachments),
      status: "pending",
      attempts: 0,
      lockedUntil: null,
      sentAt: null,
    });
    expect(withAll.nextAttemptAt).toBeInstanceOf(Date);
    expect(withAll.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(withAll.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(plain).toMatchObject({ recipients: JSON.stringify(["eltern@example.org"]), html: null, attachments: null });
    expect(() => queueMail(db, message)).toThrow(/only inside the transaction/);
    expect(outbox()).toHaveLength(2);
  });

  it("delivers over SMTP to a real server", async () => {
    const port = await freePort();
    const smtp = await startSmtpServer(port);
    try {
      writeTransaction((tx) => queueMail(tx, { ...message, to: ["a@example.org", "b@example.org"] }));
      const result = await deliverDueMails(createDelivery({ smtpUrl: `smtp://127.0.0.1:${port}`, mailDir: settings().mailDir }));
      expect(result).toEqual({ sent: 1, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to).toEqual(["a@example.org", "b@example.org"]);
      const mail = await parseMail(smtp.received[0].raw);
      expect(mail.subject).toBe("Anmeldung bestätigt");
      expect(mail.text).toContain("die Anmeldung für das Zeltlager ist bestätigt");
      const [row] = outbox();
      expect(row.status).toBe("sent");
      expect(row.sentAt).not.toBeNull();
    } finally {
      await smtp.close();
    }
  });

  it("keeps a mail while the SMTP server is down and delivers it once it is back", async () => {
    const port = await freePort();
    const delivery = createDelivery({ smtpUrl: `smtp://127.0.0.1:${port}`, mailDir: settings().mailDir });
    writeTransaction((tx) => queueMail(tx, message));

    // Nobody listens yet. The log says so at once, one warning per round, without the
    // address (operator's walk-through: nothing was logged until the mail was given up, hours later).
    writeTransaction((tx) => queueMail(tx, { ...message, to: "zweite.familie@example.org" }));
    const written: string[] = [];
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => written.push(String(chunk)) > 0);
    try {
      expect(await deliverDueMails(delivery)).toEqual({ sent: 0, failed: 2 });
    } finally {
      stdout.mockRestore();
    }
    const lines = written.join("").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: "2 Mails nicht zugestellt, neuer Versuch später", failed: 2, reason: expect.stringMatching(/ECONNREFUSED/) })]);
    expect(written.join("")).not.toMatch(/example\.org/);
    db.delete(mailOutbox).run();
    writeTransaction((tx) => queueMail(tx, message));
    expect(await deliverDueMails(delivery)).toEqual({ sent: 0, failed: 1 });
    let [row] = outbox();
    expect(row.status).toBe("pending");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/ECONNREFUSED/);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + retryDelayMs(1) - 5_000);

    // Not tried again before its time, even with the server up.
    const smtp = await startSmtpServer(port);
    try {
      expect(await deliverDueMails(delivery)).toEqual({ sent: 0, failed: 0 });
      expect(smtp.received).toHaveLength(0);

      expect(await deliverDueMails(delivery, later(retryDelayMs(1) + 1000))).toEqual({ sent: 1, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      [row] = outbox();
      expect(row.status).toBe("sent");
      expect(row.attempts).toBe(2);
    } finally {
      await smtp.close();
    }
  });

  // Operations review: without timeouts a server that accepts and then says nothing held every
  // mail back for nodemailer's ten minutes, and the next try was counted from the run's start.
  it("gives up on a server that says nothing after its timeouts (under a minute), and counts the pause from the failure", async () => {
    expect(Math.max(SMTP_TIMEOUTS.connectionTimeout, SMTP_TIMEOUTS.greetingTimeout, SMTP_TIMEOUTS.socketTimeout)).toBeLessThanOrEqual(60_000);
    const silent = createServer(() => undefined); // accepts, never greets
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const port = (silent.address() as { port: number }).port;
    try {
      const delivery = createDelivery({ smtpUrl: `smtp://127.0.0.1:${port}`, mailDir: settings().mailDir, timeouts: { connectionTimeout: 300, greetingTimeout: 300, socketTimeout: 300 } });
      writeTransaction((tx) => queueMail(tx, message));
      const started = Date.now();
      expect(await deliverDueMails(delivery, new Date(started))).toEqual({ sent: 0, failed: 1 });
      expect(Date.now() - started).toBeLessThan(5_000);
      const [row] = outbox();
      expect(row.lastError).toMatch(/Timeout|timed out|Greeting never received/i);
      // The try took its 300 ms; the pause begins after them.
      expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(started + 280 + retryDelayMs(1));
    } finally {
      silent.close();
    }
  });

  it("waits longer after each failure and gives up after the last try", async () => {
    allowConsoleErrors();
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20)).toBe(3600_000);
    const failing = async () => {
      throw new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <eltern.mueller@example.org>: Recipient address rejected");
    };
    writeTransaction((tx) => queueMail(tx, message));
    let now = Date.now();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      now += 3600_000 + 1000;
      expect(await deliverDueMails(failing, new Date(now))).toEqual({ sent: 0, failed: 1 });
    }
    // One JSON line says that it gave up, and why, without the address (attack probe: no personal
    // data in logs).
    const [row0] = outbox();
    expect(loggedErrors()).toEqual([
      expect.objectContaining({ level: 50, msg: `Mail nach ${MAX_ATTEMPTS} Versuchen aufgegeben`, mailId: row0.id, attempts: MAX_ATTEMPTS, reason: expect.stringMatching(/550 5\.1\.1/) }),
    ]);
    expect(JSON.stringify(loggedErrors())).not.toContain("eltern.mueller");
    const [row] = outbox();
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    // The outbox keeps the whole answer for the delivery log of the event's mail.
    expect(row.lastError).toContain("eltern.mueller@example.org");
    expect(await deliverDueMails(failing, new Date(now + 10 * 3600_000))).toEqual({ sent: 0, failed: 0 });
  });

  it("resumes after a restart: queued mails and mails a dead worker had claimed go out", async () => {
    const port = await freePort();
    const smtp = await startSmtpServer(port);
    try {
      writeTransaction((tx) => {
        queueMail(tx, { ...message, subject: "Wartet seit vor dem Neustart" });
        queueMail(tx, { ...message, subject: "War mitten im Versand" });
      });
      // The process died while sending the second one.
      const claimed = outbox().find((m) => m.subject === "War mitten im Versand")!;
      db.update(mailOutbox)
        .set({ status: "sending", lockedUntil: new Date(Date.now() + 60_000) })
        .where(eq(mailOutbox.id, claimed.id))
        .run();

      // Restart: a new connection to the same file, a new delivery.
      closeDatabase();
      const delivery = createDelivery({ smtpUrl: `smtp://127.0.0.1:${port}`, mailDir: settings().mailDir });
      expect(await deliverDueMails(delivery)).toEqual({ sent: 1, failed: 0 });
      // The claim of the dead worker runs out, then the mail goes out — once.
      expect(await deliverDueMails(delivery, later(3 * 60_000))).toEqual({ sent: 1, failed: 0 });
      expect(await deliverDueMails(delivery, later(10 * 60_000))).toEqual({ sent: 0, failed: 0 });
      const subjects = await Promise.all(smtp.received.map(async (m) => (await parseMail(m.raw)).subject));
      expect(subjects.sort()).toEqual([
        "War mitten im Versand",
        "Wartet seit vor dem Neustart",
      ]);
      expect(outbox().every((m) => m.status === "sent")).toBe(true);
    } finally {
      await smtp.close();
    }
  });

  it("writes one .eml file per mail into MAIL_DIR when no SMTP server is set", async () => {
    const mailDir = path.join(settings().mailDir, "files-test");
    writeTransaction((tx) => queueMail(tx, { ...message, to: "familie@example.org" }));
    expect(await deliverDueMails(createDelivery({ mailDir }))).toEqual({ sent: 1, failed: 0 });
    expect(readdirSync(mailDir)).toHaveLength(1);
    const [mail] = await readMailDir(mailDir);
    expect(mail.file).toMatch(/\.eml$/);
    expect(mail.to).toEqual(["familie@example.org"]);
    expect(mail.subject).toBe("Anmeldung bestätigt");
    expect(mail.text).toContain("die Anmeldung für das Zeltlager ist bestätigt");
  });
});
