// The SEPA detail page (issue 10, item 6): only admins and lead persons, only the event's own
// mandates; the children it pays for, the amount, and the bulk payment confirmation.
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { registrations } from "../../db/schema";
import { action, loader } from "~/routes/freizeit.$id_.sepa.$sepaId";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { resetDatabase } from "../support/fixtures";
import { register } from "../support/lists-fixtures";
import { body, get, post, run } from "../support/remix";
import { campWithPeople, mandateFor, type Person } from "../support/review-fixtures";

type Sepa = {
  mandate: { firstName: string; lastName: string; street: string; postalCode: string; city: string; iban: string };
  children: { id: number; firstName: string; paid: boolean }[];
  amountCents: number;
  owingIds: number[];
  canConfirm: boolean;
};

let camp: Awaited<ReturnType<typeof campWithPeople>>;
let mandateId: number;
let otherMandateId: number;
let foreignMandateId: number;
const kids: Record<string, number> = {};

function page(person: Person | null, sepaId: number | string = mandateId, eventId: number = camp.event.id) {
  const cookie = person ? camp.people[person].cookie : undefined;
  return run(loader, get(`/freizeit/${eventId}/sepa/${sepaId}`, { cookie, params: { id: String(eventId), sepaId: String(sepaId) } }));
}

/** The page's button: the mandate and the children it named (by default Anna's and Ben's). */
function confirm(person: Person, sepaId: number, shown = [kids.Anna, kids.Ben]) {
  const u = `/freizeit/${camp.event.id}/sepa/${sepaId}`;
  const form = new URLSearchParams({ intent: "confirm-mandate", sepaMandateId: String(sepaId) });
  for (const id of shown) form.append("registrationIds", String(id));
  return run(action, post(u, form, { cookie: camp.people[person].cookie, params: { id: String(camp.event.id), sepaId: String(sepaId) } }));
}

function withMandate(name: string, mandate: number, userId: number, options: Parameters<typeof register>[1] = {}) {
  const r = register(camp.event.id, { userId, child: { firstName: name, lastName: "Konto" }, ...options, answers: { paymentMethod: "sepa", amountCents: 20000, ...options.answers } });
  db.update(registrations).set({ sepaMandateId: mandate }).where(eq(registrations.id, r.registration.id)).run();
  kids[name] = r.registration.id;
}

beforeAll(async () => {
  resetDatabase();
  camp = await campWithPeople();
  const family = register(camp.event.id, { status: "rejected", child: { firstName: "Rolf", lastName: "Konto" }, answers: { paymentMethod: "sepa" } });
  const mandate = mandateFor(camp.event.id, family.userId, { iban: "DE89370400440532013000" });
  mandateId = mandate.id;
  db.update(registrations).set({ sepaMandateId: mandateId }).where(eq(registrations.id, family.registration.id)).run();
  withMandate("Anna", mandateId, family.userId, { status: "accepted" });
  withMandate("Ben", mandateId, family.userId, { status: "open", answers: { amountCents: 18000 } });
  withMandate("Wanda", mandateId, family.userId, { status: "open", waitingListPosition: 1 });
  const otherFamily = register(camp.event.id, { status: "accepted", answers: { paymentMethod: "sepa" } });
  otherMandateId = mandateFor(camp.event.id, otherFamily.userId).id;
  withMandate("Otto", otherMandateId, otherFamily.userId, { status: "accepted" });
  const elsewhere = createEvent({ ownerIds: [] });
  foreignMandateId = mandateFor(elsewhere.id, family.userId).id;
});

describe("who sees a SEPA mandate", () => {
  it.each(["admin", "lead"] as const)("%s sees it", async (person) => {
    const response = await page(person);
    expect(response.status).toBe(200);
    expect((await body<Sepa>(response)).canConfirm).toBe(true);
  });

  it.each(["team", "pending", "declined", "parent"] as const)("%s gets 404", async (person) => {
    expect((await page(person)).status).toBe(404);
  });

  it("a visitor is sent to the sign-in", async () => {
    const response = await page(null);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("another event's mandate, an unknown and a malformed id are 404, even for the admin", async () => {
    expect((await page("admin", foreignMandateId)).status).toBe(404);
    expect((await page("admin", 999_999)).status).toBe(404);
    expect((await page("admin", "x")).status).toBe(404);
  });
});

describe("what it shows and confirms", () => {
  it("holder, address, IBAN, the children holding a place and the amount to collect", async () => {
    const data = await body<Sepa>(await page("lead"));
    expect(data.mandate).toMatchObject({ firstName: "Konrad", lastName: "Konto", street: "Bankweg 7", postalCode: "24103", city: "Kiel", iban: "DE89370400440532013000" });
    expect(data.children.map((c) => c.firstName)).toEqual(["Anna", "Ben"]);
    expect(data.amountCents).toBe(38000);
    expect(data.owingIds).toEqual([kids.Anna, kids.Ben]);
  });

  // As the enrolment's button (review): a debit drawn for the children shown must not confirm a
  // child placed on the mandate after the page was drawn.
  it("confirms nothing when the open children are not the ones the page showed, and says so", async () => {
    for (const shown of [[kids.Anna], [kids.Anna, kids.Ben, kids.Wanda], []]) {
      const response = await confirm("lead", mandateId, shown);
      expect(response.status, String(shown)).toBe(409);
      expect((await body<{ decision: { message: string } }>(response)).decision.message).toBe(
        "Die offenen Zahlungen dieses Mandats haben sich inzwischen geändert. Bitte vergleiche den Betrag noch einmal.",
      );
    }
    expect(db.select().from(registrations).where(inArray(registrations.id, [kids.Anna, kids.Ben])).all().every((r) => !r.paid)).toBe(true);
  });

  it("the team cannot confirm (404, nothing paid)", async () => {
    expect((await confirm("team", mandateId)).status).toBe(404);
    expect(db.select().from(registrations).where(inArray(registrations.id, [kids.Anna, kids.Ben])).all().every((r) => !r.paid)).toBe(true);
  });

  it("the bulk confirmation pays exactly this mandate's place-holding registrations", async () => {
    const response = await confirm("lead", mandateId);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/freizeit/${camp.event.id}/sepa/${mandateId}`);
    const paid = (id: number) => db.select().from(registrations).where(eq(registrations.id, id)).get()!.paid;
    expect([paid(kids.Anna), paid(kids.Ben), paid(kids.Wanda), paid(kids.Otto)]).toEqual([true, true, false, false]);
    expect((await body<Sepa>(await page("lead"))).children.every((c) => c.paid)).toBe(true);
  });
});
