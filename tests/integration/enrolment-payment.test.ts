// One enrolment, one payment on the leaders' side (DECISIONS.md): the participant list searched by
// a transfer's reference shows that enrolment's payment to whoever confirms payments, and one
// button confirms every child of it that holds a place; the family gets one mail.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { enrolments, registrations } from "../../db/schema";
import { PAYMENT_MAIL_DELAY_MS, sendPaymentMails } from "~/models/payment-mails.server";
import { enrolmentReference } from "~/lib/transfer";
import { action, loader } from "~/routes/freizeit.participants.$id";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { resetDatabase } from "../support/fixtures";
import { quickUser, register } from "../support/lists-fixtures";
import { body, cookieFrom, get, outbox, post, run } from "../support/remix";
import { takeFlash } from "~/services/flash.server";
import { campWithPeople, countStatements, type Person } from "../support/review-fixtures";
import { registration } from "../support/registrations";

type Payments = {
  id: number;
  reference: string;
  paymentMethod: string;
  payer: string;
  children: { id: number; firstName: string; paid: boolean; amountCents: number | null }[];
  totalCents: number;
  openCents: number;
}[];

let camp: Awaited<ReturnType<typeof campWithPeople>>;
let parentId: number;
let enrolmentId: number;
let reference: string;
const ids: Record<string, number> = {};

/** An enrolment of `userId` for `eventId` with its reference. */
function enrolment(eventId: number, userId: number) {
  const row = db.insert(enrolments).values({ eventId, userId, submissionKey: `k-${Math.random()}`, reference: `tmp-${Math.random()}`, paymentMethod: "transfer" }).returning().get();
  const ref = enrolmentReference(eventId, row.id);
  db.update(enrolments).set({ reference: ref }).where(eq(enrolments.id, row.id)).run();
  return { id: row.id, reference: ref };
}

function child(firstName: string, values: Parameters<typeof register>[1] = {}) {
  return register(camp.event.id, { userId: parentId, child: { firstName, lastName: "Muster" }, ...values, answers: { enrolmentId, ...values.answers } }).registration.id;
}

function list(person: Person, search: string) {
  return run(loader, get(`/freizeit/participants/${camp.event.id}?suche=${encodeURIComponent(search)}`, { cookie: camp.people[person].cookie, params: { id: String(camp.event.id) } }));
}

async function flashOf(response: Response) {
  return (await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(response, "lf_flash")! } })))?.flash;
}

/** The panel's button: the enrolment and the children it named (by default Anna's and Ben's). */
function confirm(person: Person, id: number | string, shown = [ids.anna, ids.ben]) {
  const url = `/freizeit/participants/${camp.event.id}?suche=${encodeURIComponent(reference)}`;
  const form = new URLSearchParams({ intent: "confirm-enrolment", enrolmentId: String(id) });
  for (const registrationId of shown) form.append("registrationIds", String(registrationId));
  return run(action, post(url, form, { cookie: camp.people[person].cookie, params: { id: String(camp.event.id) } }));
}

beforeEach(async () => {
  resetDatabase();
  camp = await campWithPeople({ capacity: 10 });
  const parent = quickUser({ firstName: "Petra", lastName: "Muster" });
  parentId = parent.id;
  ({ id: enrolmentId, reference } = enrolment(camp.event.id, parentId));
  ids.anna = child("Anna", { status: "accepted", answers: { amountCents: 20000 } });
  ids.ben = child("Ben", { status: "open", answers: { amountCents: 18000 } });
  ids.paid = child("Carla", { status: "accepted", paid: true, answers: { amountCents: 18000 } });
  ids.waiting = child("Dora", { status: "open", waitingListPosition: 1, answers: { amountCents: null } });
  // Another family's child of the same event.
  ids.other = register(camp.event.id, { status: "accepted", child: { firstName: "Karl", lastName: "Fremd" } }).registration.id;
});

describe("the enrolment's payment on the participant list", () => {
  it("shows the lead the payer, each child, the total of the children with a place and what is open", async () => {
    const line = `Überweisung ${reference.toLowerCase().replaceAll("-", " ")} Petra Muster Sommerlager`;
    const data = await body<{ enrolmentPayments: Payments }>(await list("lead", line));
    expect(data.enrolmentPayments).toHaveLength(1);
    expect(data.enrolmentPayments[0]).toMatchObject({
      id: enrolmentId,
      reference,
      paymentMethod: "transfer",
      payer: "Petra Muster",
      totalCents: 56000,
      openCents: 38000,
      owingIds: [ids.anna, ids.ben],
      amountUnknown: false,
    });
    expect(data.enrolmentPayments[0].children.map((c) => c.firstName)).toEqual(["Anna", "Ben", "Carla", "Dora"]);
  });

  // Review: one transfer for two enrolments carries both references; the list showed the first.
  it("shows every enrolment of this event a line names, in the line's order, and no other", async () => {
    const second = enrolment(camp.event.id, parentId);
    const emil = register(camp.event.id, { userId: parentId, child: { firstName: "Emil", lastName: "Muster" }, status: "accepted", answers: { enrolmentId: second.id, amountCents: 15000 } }).registration.id;
    const elsewhere = enrolment(createEvent({ ownerIds: [camp.people.lead.id] }).id, parentId);
    const unknown = enrolmentReference(camp.event.id, 999_999);
    const line = `${second.reference} ${elsewhere.reference} ${unknown} und ${reference.replaceAll("-", " ")}, ${second.reference}`;
    const data = await body<{ enrolmentPayments: Payments; unknownReferences: string[]; table: { id: number }[] }>(await list("lead", line));
    expect(data.enrolmentPayments.map((p) => [p.reference, p.openCents])).toEqual([
      [second.reference, 15000],
      [reference, 38000],
    ]);
    // Review: a reference of this event without an enrolment (mistyped by the payer) was left out
    // of the sum without a word.
    expect(data.unknownReferences).toEqual([unknown]);
    // The list shows the children of both, no other family's.
    expect(data.table.map((r) => r.id).sort((a, b) => a - b)).toEqual([ids.anna, ids.ben, ids.paid, emil].sort((a, b) => a - b));
  });

  it.each<[Person, boolean]>([
    ["admin", true],
    ["lead", true],
    ["team", false],
  ])("%s sees it: %s (the camp team confirms no payments)", async (person, shown) => {
    const data = await body<{ enrolmentPayments: Payments }>(await list(person, reference));
    expect(data.enrolmentPayments.length).toBe(shown ? 1 : 0);
  });

  it("is not shown for a name search, another event's reference or an unknown enrolment", async () => {
    const elsewhere = enrolment(createEvent({ ownerIds: [camp.people.lead.id] }).id, parentId);
    for (const search of ["Anna", elsewhere.reference, enrolmentReference(camp.event.id, 999_999)]) {
      expect((await body<{ enrolmentPayments: Payments }>(await list("lead", search))).enrolmentPayments, search).toEqual([]);
    }
  });

  it("asks the database as often for two children as for eight, and for one reference as for three", async () => {
    const statements = async (search = reference) => (await countStatements(() => list("lead", search))).statements;
    const two = await statements();
    for (let i = 0; i < 6; i++) child(`Kind${i}`, { status: "accepted" });
    expect(await statements()).toBe(two);
    const more = [enrolment(camp.event.id, parentId), enrolment(camp.event.id, parentId)];
    for (const [i, { id }] of more.entries()) register(camp.event.id, { userId: parentId, child: { firstName: `Geschwister${i}`, lastName: "Muster" }, answers: { enrolmentId: id } });
    expect(await statements([reference, ...more.map((e) => e.reference)].join(" "))).toBe(two);
  });
});

describe("confirming the enrolment's payment", () => {
  // Review: the button sent only the enrolment, and the server confirmed whatever was open at the
  // click: a child placed after the page was opened was confirmed against a smaller transfer.
  it("confirms nothing when the open children are not the ones the button named, and says so", async () => {
    db.update(registrations).set({ waitingListPosition: null, amountCents: 18000 }).where(eq(registrations.id, ids.waiting)).run();
    for (const shown of [[ids.anna, ids.ben], [ids.anna], []]) {
      const response = await confirm("lead", enrolmentId, shown);
      expect(response.status, String(shown)).toBe(409);
      expect((await body<{ decision: { message: string; registrationId: null } }>(response)).decision).toMatchObject({
        registrationId: null,
        // Review: with several panels on the page, the message names the enrolment it means.
        message: `Die offenen Zahlungen der Anmeldung ${reference} haben sich inzwischen geändert. Bitte vergleiche den Betrag noch einmal.`,
      });
    }
    expect([ids.anna, ids.ben, ids.waiting].map((id) => registration(id).paid)).toEqual([false, false, false]);
    // The page now names all three, and their button confirms them.
    const data = await body<{ enrolmentPayments: (Payments[number] & { owingIds: number[] })[] }>(await list("lead", reference));
    expect(data.enrolmentPayments[0]).toMatchObject({ openCents: 56000, owingIds: [ids.anna, ids.ben, ids.waiting] });
    expect((await confirm("lead", enrolmentId, [ids.waiting, ids.ben, ids.anna])).status).toBe(302);
    expect([ids.anna, ids.ben, ids.waiting].map((id) => registration(id).paid)).toEqual([true, true, true]);
  });

  it("a child without a stored amount is named as such and confirmed with the others", async () => {
    db.update(registrations).set({ amountCents: null }).where(eq(registrations.id, ids.ben)).run();
    const data = await body<{ enrolmentPayments: (Payments[number] & { owingIds: number[]; amountUnknown: boolean })[] }>(await list("lead", reference));
    expect(data.enrolmentPayments[0]).toMatchObject({ openCents: 20000, owingIds: [ids.anna, ids.ben], amountUnknown: true });
    expect((await confirm("lead", enrolmentId)).status).toBe(302);
    expect([ids.anna, ids.ben].map((id) => registration(id).paid)).toEqual([true, true]);
  });

  it("confirms its unpaid children with a place, none else, back to the search; the family gets one mail", async () => {
    const response = await confirm("lead", enrolmentId);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/freizeit/participants/${camp.event.id}?suche=${encodeURIComponent(reference)}`);
    expect(await flashOf(response)).toMatchObject({
      kind: "success",
      title: "Bezahlung bestätigt",
      message: "Bezahlung für Anna und Ben Muster bestätigt. Die Eltern bekommen in 10 Minuten eine E-Mail.",
    });
    expect([ids.anna, ids.ben, ids.paid].map((id) => registration(id).paid)).toEqual([true, true, true]);
    expect(registration(ids.waiting).paid).toBe(false);
    expect(registration(ids.other).paid).toBe(false);

    const data = await body<{ enrolmentPayments: Payments }>(await list("lead", reference));
    expect(data.enrolmentPayments[0]).toMatchObject({ totalCents: 56000, openCents: 0 });

    expect(outbox()).toEqual([]);
    expect(sendPaymentMails(new Date(Date.now() + PAYMENT_MAIL_DELAY_MS))).toBe(1);
    const [mail] = outbox();
    expect(mail.subject).toBe("Zahlung eingegangen: Anna und Ben Muster – Sommerlager");
    expect(mail.text).toContain("die Zahlung für Anna und Ben ist bei uns eingegangen. Vielen Dank!");
  });

  it("a repeat changes nothing and says no payment is open", async () => {
    expect((await confirm("lead", enrolmentId)).status).toBe(302);
    const again = await confirm("admin", enrolmentId);
    expect(again.status).toBe(302);
    expect(await flashOf(again)).toMatchObject({ message: `Für die Anmeldung ${reference} ist keine Zahlung mehr offen.` });
    expect(db.select().from(registrations).where(eq(registrations.enrolmentId, enrolmentId)).all().filter((r) => r.paid)).toHaveLength(3);
  });

  it("the camp team, a parent and a pending helper are refused, and nothing changes", async () => {
    // The camp team sees the list and may not confirm; the others do not see the list (to the home page).
    expect((await confirm("team", enrolmentId)).status).toBe(404);
    for (const person of ["parent", "pending"] as Person[]) {
      const response = await confirm(person, enrolmentId);
      expect([response.status, response.headers.get("Location")], person).toEqual([302, "/"]);
    }
    expect([ids.anna, ids.ben].map((id) => registration(id).paid)).toEqual([false, false]);
  });

  it("an enrolment of another event, an unknown or a malformed one is refused with a message, and nothing changes", async () => {
    const elsewhereEvent = createEvent({ ownerIds: [camp.people.lead.id] }).id;
    const elsewhere = enrolment(elsewhereEvent, parentId);
    const theirs = register(elsewhereEvent, { userId: parentId, status: "accepted", answers: { enrolmentId: elsewhere.id } }).registration.id;
    for (const [id, message] of [
      [elsewhere.id, "Zu dieser Anmeldung gibt es bei dieser Veranstaltung kein Kind mit Platz."],
      [999_999, "Zu dieser Anmeldung gibt es bei dieser Veranstaltung kein Kind mit Platz."],
      ["abc", "Diese Anmeldung gibt es bei dieser Veranstaltung nicht."],
      ["", "Diese Anmeldung gibt es bei dieser Veranstaltung nicht."],
    ] as const) {
      const response = await confirm("lead", id, [theirs]);
      expect(response.status, String(id)).toBe(404);
      expect((await body<{ decision: { message: string } }>(response)).decision.message, String(id)).toBe(message);
    }
    expect(registration(theirs).paid).toBe(false);
    expect([ids.anna, ids.ben].map((id) => registration(id).paid)).toEqual([false, false]);
  });
});
