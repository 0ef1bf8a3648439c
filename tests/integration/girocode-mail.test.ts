// A family paying by transfer gets the GiroCode by mail too (DECISIONS.md, one enrolment, one
// payment: "sees on a confirmation page of its own (and gets by mail) … a GiroCode"): a PNG
// attached to the enrolment's mail and to each mail that asks for a child's amount on its own.
// The outbox keeps only the transfer; the mail worker draws the picture, so an enrolment's
// transaction draws nothing. Read back through a real SMTP server and decoded as a banking app would.
import { eq } from "drizzle-orm";
import jsQR from "jsqr";
import { simpleParser } from "mailparser";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { participants, registrations } from "../../db/schema";
import { epcPayload } from "~/lib/epc-qr";
import { decide } from "~/models/registration-decision.server";
import type { SessionUser } from "~/models/user.server";
import { action as enrollAction } from "~/routes/enroll.$eventId";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { createDelivery, deliverDueMails } from "~/services/mail-delivery.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createRegistration } from "../support/registrations";
import { outbox, post, run } from "../support/remix";
import { freePort, startSmtpServer } from "../support/smtp";

beforeEach(() => resetDatabase());

async function enrolTwo({ paymentMethod = "transfer", capacity = 1, priceCents = 20000, full = false } = {}) {
  const leader = await createUser({ firstName: "Lea" });
  const lead: SessionUser = { id: leader.id, email: leader.email, firstName: leader.firstName, lastName: leader.lastName, role: "user" };
  const parent = await createUser({ firstName: "Eva" });
  const camp = createEvent({ ownerIds: [lead.id], capacity, priceCents, siblingDiscountCents: 2000 });
  // Another family holds every place already: both children wait.
  if (full) for (let i = 0; i < capacity; i++) createRegistration(camp.id, leader.id);
  const [anna, ben] = ["Anna", "Ben"].map(
    (firstName) => db.insert(participants).values({ userId: parent.id, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get(),
  );
  const sepa = { "sepa.firstName": "Eva", "sepa.lastName": "Muster", "sepa.street": "Weg 1", "sepa.postalCode": "24103", "sepa.city": "Kiel", "sepa.iban": "DE02120300000000202051", "sepa.consentMandate": "on", "sepa.consentPrivacy": "on" };
  const fields = {
    submissionKey: `girocode-${Date.now()}-abcdef`,
    referral: "",
    paymentMethod,
    terms: "on",
    intent: "submit",
    "boxes[0].participant": String(anna.id),
    "boxes[1].participant": String(ben.id),
    ...(paymentMethod === "sepa" ? sepa : {}),
  };
  const response = await run(enrollAction, post(`/enroll/${camp.id}`, fields, { cookie: await sessionCookieFor(parent.id), params: { eventId: String(camp.id) } }));
  expect(response.status).toBe(302);
  return { lead, parent, camp };
}

/** Delivers the outbox over SMTP and reads every mail back: its text and its attachments. */
async function delivered() {
  const port = await freePort();
  const smtp = await startSmtpServer(port);
  try {
    await deliverDueMails(createDelivery({ smtpUrl: `smtp://127.0.0.1:${port}`, mailDir: settings().mailDir }));
    return await Promise.all(smtp.received.map((m) => simpleParser(m.raw)));
  } finally {
    await smtp.close();
  }
}

async function decodePng(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  return code ? Buffer.from(code.binaryData).toString("utf8") : null;
}

function transferOf(amountCents: number, text: string) {
  const bank = settings().bank;
  return epcPayload({ bic: bank.bic, name: bank.accountHolder, iban: bank.iban, amountCents, text });
}

describe("the GiroCode by mail", () => {
  it("comes with the enrolment's mail, for the total of the placed children", async () => {
    await enrolTwo({ capacity: 5 });
    // The outbox holds the transfer, not a picture: the enrolment draws nothing.
    const stored = JSON.parse(outbox()[0].attachments!) as { filename: string; girocode: { amountCents: number; text: string } }[];
    expect(stored).toEqual([{ filename: "GiroCode.png", girocode: expect.objectContaining({ amountCents: 38000 }) }]);
    const [mail] = await delivered();
    expect(mail.text).toContain("GiroCode: im Anhang (GiroCode.png). Mit deiner Banking-App scannen, dann sind Konto, Betrag und Verwendungszweck schon ausgefüllt.");
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([["GiroCode.png", "image/png"]]);
    const reference = /Verwendungszweck: (\S+)/.exec(mail.text!)![1];
    expect(await decodePng(mail.attachments[0].content)).toBe(transferOf(38000, reference));
  });

  it("comes with the mail that asks for a child moved up later, for that child's amount alone", async () => {
    const { lead, camp } = await enrolTwo();
    const [enrolmentMail] = await delivered();
    const reference = /Verwendungszweck: (\S+)/.exec(enrolmentMail.text!)![1];
    expect(await decodePng(enrolmentMail.attachments[0].content)).toBe(transferOf(20000, reference));
    const benId = db.select().from(participants).all().find((p) => p.firstName === "Ben")!.id;
    const ben = db.select().from(registrations).where(eq(registrations.participantId, benId)).get()!;
    expect(decide(camp.id, ben.id, "move-up", lead, "", new Date(), { addPlace: true })).toMatchObject({ ok: true });
    const [movedUp] = await delivered();
    expect(movedUp.subject).toMatch(/^Nachgerückt: Ben Muster/);
    expect(movedUp.text).toContain("Bitte überweise für Ben 180,00\u00a0€ auf dieses Konto:");
    expect(movedUp.text).toContain("GiroCode: im Anhang (GiroCode.png).");
    expect(await decodePng(movedUp.attachments[0].content)).toBe(transferOf(18000, reference));
  });

  it("is not sent when nothing is to be transferred: SEPA, a free event, only the waiting list", async () => {
    await enrolTwo({ paymentMethod: "sepa", capacity: 5 });
    await enrolTwo({ priceCents: 0, capacity: 5 });
    await enrolTwo({ capacity: 1, full: true });
    const mails = await delivered();
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect(mail.attachments).toEqual([]);
      expect(mail.text).not.toContain("GiroCode");
    }
  });
});
