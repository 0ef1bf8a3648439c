// The confirmation page asks for what is open in the transfers the mails asked for: the
// enrolment's own children in one, each child that got its place later (moved up by the leaders,
// or an offered place taken) on its own, as its mail asked (a parents' review: after a sibling
// moved up, the page asked for both children's 380 € in one transfer while the mail had asked for
// the sibling's 180 € alone).
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { events, participants, registrations } from "../../db/schema";
import { enrol, type EnrolmentRequest } from "~/models/enrollment.server";
import { getEnrolmentConfirmation } from "~/models/enrollment-confirmation.server";
import { decide } from "~/models/registration-decision.server";
import { PAYMENT_MAIL_DELAY_MS, sendPaymentMails } from "~/models/payment-mails.server";
import type { SessionUser } from "~/models/user.server";
import { answerOffer } from "~/models/waiting-list.server";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase } from "../support/fixtures";
import { createRegistration } from "../support/registrations";
import { outbox } from "../support/remix";

beforeEach(() => resetDatabase());

async function account(firstName: string): Promise<SessionUser> {
  const user = await createUser({ firstName });
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: "user" };
}

function children(userId: number, names: string[]) {
  return names.map((firstName) =>
    db.insert(participants).values({ userId, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get(),
  );
}

let key = 0;
function request(childIds: number[], paymentMethod: "transfer" | "sepa" = "transfer"): EnrolmentRequest {
  return {
    submissionKey: `teile-${Date.now()}-${++key}`,
    referral: "",
    paymentMethod,
    sepa: null,
    boxes: childIds.map((id) => ({ participant: String(id), specialNeeds: "", nameOfInsured: "", guardian: "" }) as EnrolmentRequest["boxes"][number]),
  };
}

function regsOf(eventId: number) {
  return db.select().from(registrations).where(eq(registrations.eventId, eventId)).orderBy(registrations.id).all();
}

const parts = (enrolmentId: number, user: SessionUser) =>
  getEnrolmentConfirmation(enrolmentId, user)!.openParts.map((p) => ({ names: p.names, cents: p.cents, alone: p.alone }));

/** Anna and Ben enrolled together, both with a place (200 € and 180 €). */
async function annaAndBenPlaced() {
  const lead = await account("Lea");
  const parent = await account("Eva");
  const camp = createEvent({ ownerIds: [lead.id], capacity: 5, priceCents: 20000, siblingDiscountCents: 2000 });
  const { enrolmentId } = await enrol(camp.id, parent, request(children(parent.id, ["Anna", "Ben"]).map((c) => c.id)));
  return { lead, parent, camp, enrolmentId };
}

describe("the confirmation's open amount", () => {
  it("is one transfer while every open child was placed with the enrolment", async () => {
    const { parent, enrolmentId } = await annaAndBenPlaced();
    expect(parts(enrolmentId, parent)).toEqual([{ names: ["Anna Muster", "Ben Muster"], cents: 38000, alone: false }]);
    expect(getEnrolmentConfirmation(enrolmentId, parent)!.openCents).toBe(38000);
  });

  it("asks for a child moved up by the leaders on its own, and for the enrolment's children in one", async () => {
    const lead = await account("Lea");
    const parent = await account("Eva");
    const camp = createEvent({ ownerIds: [lead.id], capacity: 1, priceCents: 20000, siblingDiscountCents: 2000 });
    const { enrolmentId } = await enrol(camp.id, parent, request(children(parent.id, ["Anna", "Ben", "Clara"]).map((c) => c.id)));
    const [, ben, clara] = regsOf(camp.id);
    // Only the enrolment's placed child is asked for, as its mail did.
    expect(parts(enrolmentId, parent)).toEqual([{ names: ["Anna Muster"], cents: 20000, alone: false }]);

    decide(camp.id, ben.id, "move-up", lead, "", new Date(), { addPlace: true });
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Anna Muster"], cents: 20000, alone: false },
      { names: ["Ben Muster"], cents: 18000, alone: true },
    ]);
    decide(camp.id, clara.id, "move-up", lead, "", new Date(), { addPlace: true });
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Anna Muster"], cents: 20000, alone: false },
      { names: ["Ben Muster"], cents: 18000, alone: true },
      { names: ["Clara Muster"], cents: 18000, alone: true },
    ]);
    // What is paid drops out; the rest keeps its own transfers.
    const [anna] = regsOf(camp.id);
    decide(camp.id, anna.id, "confirm-payment", lead);
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Ben Muster"], cents: 18000, alone: true },
      { names: ["Clara Muster"], cents: 18000, alone: true },
    ]);
    expect(getEnrolmentConfirmation(enrolmentId, parent)!.openCents).toBe(36000);
  });

  it("asks for a child that took an offered place on its own", async () => {
    const lead = await account("Lea");
    const parent = await account("Eva");
    const other = await account("Olga");
    const camp = createEvent({ ownerIds: [lead.id], capacity: 2, priceCents: 20000, offerHours: 48 });
    const first = createRegistration(camp.id, other.id);
    const { enrolmentId } = await enrol(camp.id, parent, request(children(parent.id, ["Anna", "Ben"]).map((c) => c.id)));
    const ben = regsOf(camp.id)[2];
    expect(decide(camp.id, first.id, "reject", lead, "Zu alt")).toMatchObject({ ok: true });
    expect(answerOffer(ben.id, parent, "accept")).toMatchObject({ ok: true });
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Anna Muster"], cents: 20000, alone: false },
      { names: ["Ben Muster"], cents: 20000, alone: true },
    ]);
  });

  it("asks for a child placed when its rejection is revoked on its own, by mail with its GiroCode", async () => {
    const lead = await account("Lea");
    const parent = await account("Eva");
    const camp = createEvent({ ownerIds: [lead.id], capacity: 1, priceCents: 12000, siblingDiscountCents: 2000 });
    const { enrolmentId } = await enrol(camp.id, parent, request(children(parent.id, ["Clara", "Henry"]).map((c) => c.id)));
    const henry = regsOf(camp.id)[1];
    expect(decide(camp.id, henry.id, "reject", lead, "Zu jung")).toMatchObject({ ok: true });
    db.update(events).set({ capacity: 2 }).where(eq(events.id, camp.id)).run();
    expect(decide(camp.id, henry.id, "revoke-rejection", lead)).toMatchObject({ ok: true });
    const mail = outbox()[0];
    expect(mail.subject).toMatch(/^Ablehnung aufgehoben: Henry Muster/);
    expect(mail.text).toContain("Bitte überweise für Henry 100,00\u00a0€ auf dieses Konto:");
    expect(JSON.parse(mail.attachments!)).toEqual([{ filename: "GiroCode.png", girocode: expect.objectContaining({ amountCents: 10000 }) }]);
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Clara Muster"], cents: 12000, alone: false },
      { names: ["Henry Muster"], cents: 10000, alone: true },
    ]);
  });

  it("names the debits a family paying by SEPA mandate was told of in the same parts", async () => {
    const lead = await account("Lea");
    const parent = await account("Eva");
    const camp = createEvent({ ownerIds: [lead.id], capacity: 1, priceCents: 20000 });
    const { enrolmentId } = await enrol(camp.id, parent, {
      ...request(children(parent.id, ["Anna", "Ben"]).map((c) => c.id), "sepa"),
      sepa: { firstName: "Eva", lastName: "Muster", street: "Weg 1", postalCode: "24103", city: "Kiel", iban: "DE02120300000000202051" },
    });
    decide(camp.id, regsOf(camp.id)[1].id, "move-up", lead, "", new Date(), { addPlace: true });
    expect(outbox()[0].text).toContain("Der Betrag von 200,00\u00a0€ für Ben wird per SEPA-Lastschrift");
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Anna Muster"], cents: 20000, alone: false },
      { names: ["Ben Muster"], cents: 20000, alone: true },
    ]);
  });
});

/** The "Zahlung eingegangen" mails waiting their ten minutes go out. */
function sendWaitingMails() {
  expect(sendPaymentMails(new Date(Date.now() + PAYMENT_MAIL_DELAY_MS))).toBe(1);
}

describe("a payment the leaders booked and took back", () => {
  it("is asked for on its own once the parents were told it arrived, as the 'Zahlung noch offen' mail asks", async () => {
    const { lead, parent, camp, enrolmentId } = await annaAndBenPlaced();
    const [anna, ben] = regsOf(camp.id);
    decide(camp.id, anna.id, "confirm-payment", lead);
    sendWaitingMails();
    expect(parts(enrolmentId, parent)).toEqual([{ names: ["Ben Muster"], cents: 18000, alone: false }]);
    decide(camp.id, anna.id, "revoke-payment", lead, "Die Überweisung kam von einer anderen Familie.");
    const mail = outbox()[0];
    expect(mail.subject).toMatch(/^Zahlung noch offen: Anna Muster/);
    expect(mail.text).toContain("Bitte überweise für Anna 200,00\u00a0€ auf dieses Konto:");
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Ben Muster"], cents: 18000, alone: false },
      { names: ["Anna Muster"], cents: 20000, alone: true },
    ]);
    // Both taken back after both mails: two transfers, as the two mails asked.
    decide(camp.id, ben.id, "confirm-payment", lead);
    sendWaitingMails();
    decide(camp.id, ben.id, "revoke-payment", lead);
    expect(outbox()[0].text).toContain("Bitte überweise für Ben 180,00\u00a0€ auf dieses Konto:");
    expect(parts(enrolmentId, parent)).toEqual([
      { names: ["Anna Muster"], cents: 20000, alone: true },
      { names: ["Ben Muster"], cents: 18000, alone: true },
    ]);
  });

  it("stays in the enrolment's one transfer when it was taken back before the parents heard of it", async () => {
    const { lead, parent, camp, enrolmentId } = await annaAndBenPlaced();
    const [anna] = regsOf(camp.id);
    const mails = outbox().length;
    decide(camp.id, anna.id, "confirm-payment", lead);
    decide(camp.id, anna.id, "revoke-payment", lead);
    expect(outbox()).toHaveLength(mails);
    expect(parts(enrolmentId, parent)).toEqual([{ names: ["Anna Muster", "Ben Muster"], cents: 38000, alone: false }]);
  });
});
