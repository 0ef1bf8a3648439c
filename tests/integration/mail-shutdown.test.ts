// Graceful shutdown of the mail worker: the mail under way is finished, the others stay queued.
import { describe, expect, it } from "vitest";
import { mailOutbox } from "../../db/schema";
import { db, writeTransaction } from "~/services/db.server";
import { startMailWorker, stopMailWorker, type Deliver } from "~/services/mail-delivery.server";
import { queueMail } from "~/services/mail.server";

describe("stopping the mail worker", () => {
  it("finishes the mail being sent and leaves the rest in the queue for the next start", async () => {
    writeTransaction((tx) => {
      for (const n of [1, 2, 3]) queueMail(tx, { to: `eltern${n}@example.org`, subject: `Mail ${n}`, text: "Hallo" });
    });
    let began!: () => void;
    const sending = new Promise<void>((resolve) => (began = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const delivered: string[] = [];
    const slow: Deliver = async (mail) => {
      began();
      await finished;
      delivered.push(mail.subject);
    };

    startMailWorker(slow);
    await sending;
    let stopped = false;
    const stopping = stopMailWorker().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false); // waits for the mail under way
    finish();
    await stopping;

    expect(delivered).toEqual(["Mail 1"]);
    const rows = db.select().from(mailOutbox).all();
    expect(rows.map((r) => [r.subject, r.status, r.lockedUntil])).toEqual([
      ["Mail 1", "sent", null],
      ["Mail 2", "pending", null],
      ["Mail 3", "pending", null],
    ]);
  });
});
