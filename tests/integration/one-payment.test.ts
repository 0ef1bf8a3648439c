// One enrolment, one payment (DECISIONS.md) across the leaders' decisions (mail review): the
// enrolment mail asks for the total of the placed children, so the mails that follow must not ask
// for a placed child's amount again, and a child that gets its place later is asked for on its own.
// The confirmation page asks only for what is still open.
import { beforeEach, describe, expect, it } from "vitest";
import { participants } from "../../db/schema";
import { epcPayload, qrPath } from "~/lib/epc-qr";
import { decide } from "~/models/registration-decision.server";
import type { SessionUser } from "~/models/user.server";
import { answerOffer } from "~/models/waiting-list.server";
import { loader as confirmationLoader } from "~/routes/anmeldung.$enrolmentId";
import { action as enrollAction, loader as enrollLoader } from "~/routes/enroll.$eventId";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, outbox, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

type Page = { enrolment: { reference: string; totalCents: number; paidCents: number; openCents: number; children: { id: number }[] }; codes: { d: string }[] };

async function setting() {
  const leader = await createUser({ firstName: "Lea" });
  const lead: SessionUser = { id: leader.id, email: leader.email, firstName: leader.firstName, lastName: leader.lastName, role: "user" };
  const parent = await createUser({ firstName: "Eva" });
  const cookie = await sessionCookieFor(parent.id);
  // One place: the first child gets it, the second waits.
  const camp = createEvent({ ownerIds: [lead.id], capacity: 1, priceCents: 20000, siblingDiscountCents: 2000 });
  const [anna, ben] = ["Anna", "Ben"].map(
    (firstName) => db.insert(participants).values({ userId: parent.id, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get(),
  );
  const fields = { submissionKey: `eine-zahlung-${Date.now()}-abcdef`, referral: "", paymentMethod: "transfer", terms: "on", intent: "submit", "boxes[0].participant": String(anna.id), "boxes[1].participant": String(ben.id) };
  const response = await run(enrollAction, post(`/enroll/${camp.id}`, fields, { cookie, params: { eventId: String(camp.id) } }));
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  const confirmation = async () => body<Page>(await run(confirmationLoader, get(location, { cookie, params: { enrolmentId: location.split("/").pop()! } })));
  const [annaReg, benReg] = (await confirmation()).enrolment.children;
  return { lead, parent, camp, location, confirmation, annaId: annaReg.id, benId: benReg.id };
}

const newest = () => outbox()[0];

describe("the form before the enrolment", () => {
  // It says the total before 'Verbindlich Anmelden' (screens' review): it counts on from the
  // account's children that already hold a place, as the enrolment's amounts do.
  it("knows how many of the account's children already hold a place", async () => {
    const { parent, camp } = await setting();
    const cookie = await sessionCookieFor(parent.id);
    const form = async () => body<{ placesHeld: number }>(await run(enrollLoader, get(`/enroll/${camp.id}`, { cookie, params: { eventId: String(camp.id) } })));
    expect((await form()).placesHeld).toBe(1); // Anna holds the place, Ben waits
    const other = await createUser();
    expect((await body<{ placesHeld: number }>(await run(enrollLoader, get(`/enroll/${camp.id}`, { cookie: await sessionCookieFor(other.id), params: { eventId: String(camp.id) } })))).placesHeld).toBe(0);
  });
});

describe("one enrolment, one payment, after the enrolment", () => {
  it("the leaders' acceptance asks for no second transfer; it points to the confirmation page", async () => {
    const { lead, camp, location, annaId } = await setting();
    expect(newest().text).toContain("Betrag: 200,00");
    expect(decide(camp.id, annaId, "accept", lead)).toMatchObject({ ok: true, changed: true });
    const mail = newest();
    expect(mail.subject).toMatch(/^Anmeldung bestätigt: Anna Muster/);
    expect(mail.text).not.toMatch(/überweise|IBAN|Verwendungszweck: /);
    expect(mail.text).toContain(`Falls du für Anna noch nicht bezahlt hast: Konto, Betrag und Verwendungszweck stehen auf deiner Anmeldebestätigung:\n${settings().appUrl}${location}`);
  });

  it("a paid child's acceptance says nothing of paying", async () => {
    const { lead, camp, annaId } = await setting();
    decide(camp.id, annaId, "confirm-payment", lead);
    decide(camp.id, annaId, "accept", lead);
    expect(newest().subject).toMatch(/^Anmeldung bestätigt/);
    expect(newest().text).not.toMatch(/bezahlt|überweise/);
  });

  it("a child moved up later is asked for on its own, and the page asks only for what is open", async () => {
    const { lead, camp, confirmation, annaId, benId } = await setting();
    decide(camp.id, annaId, "confirm-payment", lead);
    expect(decide(camp.id, benId, "move-up", lead, "", new Date(), { addPlace: true })).toMatchObject({ ok: true });
    const page = await confirmation();
    const mail = newest();
    expect(mail.subject).toMatch(/^Nachgerückt: Ben Muster/);
    expect(mail.text).toContain("Bitte überweise für Ben 180,00\u00a0€ auf dieses Konto:");
    expect(mail.text).toContain(`Verwendungszweck: ${page.enrolment.reference}`);
    expect(page.enrolment).toMatchObject({ totalCents: 38000, paidCents: 20000, openCents: 18000 });
    const bank = settings().bank;
    expect(page.codes.map((c) => c.d)).toEqual([qrPath(epcPayload({ bic: bank.bic, name: bank.accountHolder, iban: bank.iban, amountCents: 18000, text: page.enrolment.reference })).d]);
    // Accepting Ben afterwards asks for nothing again.
    decide(camp.id, benId, "accept", lead);
    expect(newest().text).not.toMatch(/überweise/);
  });

  it("a place taken from an offer is asked for on its own", async () => {
    const { lead, parent, camp, annaId, benId } = await setting();
    decide(camp.id, annaId, "reject", lead, "Doppelt");
    const user: SessionUser = { id: parent.id, email: parent.email, firstName: parent.firstName, lastName: parent.lastName, role: "user" };
    expect(answerOffer(benId, user, "accept")).toMatchObject({ ok: true });
    expect(newest().subject).toMatch(/^Platz angenommen: Ben Muster/);
    // Anna was turned down: Ben is the account's only child with a place and pays the full price.
    expect(newest().text).toContain("Bitte überweise für Ben 200,00\u00a0€ auf dieses Konto:");
  });

  it("a second child paid for after the first leaves the page nothing to ask", async () => {
    const { lead, camp, confirmation, annaId } = await setting();
    decide(camp.id, annaId, "confirm-payment", lead);
    const page = await confirmation();
    expect(page.enrolment).toMatchObject({ totalCents: 20000, paidCents: 20000, openCents: 0 });
    expect(page.codes).toEqual([]);
  });
});
