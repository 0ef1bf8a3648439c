// Issue 9: saving into the account, one round of errors, birth dates, the deadline, the
// registration's own answers, one total with the sibling discount.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { guardians, participants, registrations } from "../../db/schema";
import { loader as confirmationLoader } from "~/routes/anmeldung.$enrolmentId";
import { loader as eventLoader } from "~/routes/freizeit.$id";
import { action as enrollAction } from "~/routes/enroll.$eventId";
import { db } from "~/services/db.server";
import { createEvent, daysFromToday } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, outbox, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

type Answer = { errors: Record<string, string[]>; payload: { boxes: Record<string, string>[] } };

async function parent() {
  const user = await createUser({ firstName: "Eva", lastName: "Muster" });
  return { user, cookie: await sessionCookieFor(user.id) };
}

function child(userId: number, firstName = "Mia", birthDate = "2015-05-01") {
  return db.insert(participants).values({ userId, firstName, lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate }).returning().get();
}

let key = 0;
function form(fields: Record<string, string>) {
  return { submissionKey: `regeln-${Date.now()}-${++key}-abcdef`, referral: "", paymentMethod: "transfer", terms: "on", intent: "submit", ...fields };
}

function submit(eventId: number, cookie: string, fields: Record<string, string>) {
  return run(enrollAction, post(`/enroll/${eventId}`, fields, { cookie, params: { eventId: String(eventId) } }));
}

async function confirmationOf(response: Response, cookie: string) {
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  return run(confirmationLoader, get(location, { cookie, params: { enrolmentId: location.split("/").pop()! } }));
}

const NEW_CHILD = {
  "boxes[0].participant": "neu",
  "boxes[0].child.firstName": "Ida",
  "boxes[0].child.lastName": "Muster",
  "boxes[0].child.street": "Weg 2",
  "boxes[0].child.city": "Kiel",
  "boxes[0].child.birthDate": "2014-02-02",
  "boxes[0].guardian": "neu",
  "boxes[0].newGuardian.firstName": "Eva",
  "boxes[0].newGuardian.lastName": "Muster",
};

describe("'Im Konto speichern'", () => {
  it("stores the child and guardian once for a double tap and keeps both chosen, also in the box that named the typed guardian", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const fields = { ...form({ intent: "save-0" }), ...NEW_CHILD, "boxes[0].saveKey": "speichern-abcdefghijklmnop", "boxes[1].participant": "neu", "boxes[1].guardian": "box-0" };
    const first = await body<Answer>(await submit(camp.id, cookie, fields));
    const second = await body<Answer>(await submit(camp.id, cookie, fields));
    const kids = db.select().from(participants).where(eq(participants.userId, user.id)).all();
    const adults = db.select().from(guardians).where(eq(guardians.userId, user.id)).all();
    expect(kids).toHaveLength(1);
    expect(adults).toHaveLength(1);
    for (const answer of [first, second]) {
      expect(answer.payload.boxes[0]).toMatchObject({ participant: String(kids[0].id), guardian: String(adults[0].id) });
      expect(answer.payload.boxes[1].guardian).toBe(String(adults[0].id));
    }
    // The box gets a new key: the next save is a new one.
    expect(first.payload.boxes[0].saveKey).not.toBe("speichern-abcdefghijklmnop");
  });

  // An attacker's probe: two dates of one box both said "Bitte gib ein gültiges Datum an.", and
  // the summary could not tell which was meant.
  it("names which birth date is no date: the child's or the insured person's", async () => {
    const camp = createEvent();
    const { cookie } = await parent();
    const response = await submit(camp.id, cookie, { ...form({}), ...NEW_CHILD, "boxes[0].child.birthDate": "30.02.2014", "boxes[0].birthdateOfInsured": "ungültig" });
    expect(response.status).toBe(400);
    const { errors } = await body<Answer>(response);
    expect(errors["boxes[0].child.birthDate"]).toEqual(["Bitte gib ein gültiges Geburtsdatum an."]);
    expect(errors["boxes[0].birthdateOfInsured"]).toEqual(["Bitte gib ein gültiges Geburtsdatum der versicherten Person an."]);
  });

  it("refuses a birth date in the future and saves nothing", async () => {
    const camp = createEvent();
    const { cookie } = await parent();
    const response = await submit(camp.id, cookie, { ...form({ intent: "save-0" }), ...NEW_CHILD, "boxes[0].child.birthDate": daysFromToday(1) });
    expect(response.status).toBe(400);
    expect((await body<Answer>(response)).errors["boxes[0].child.birthDate"]).toEqual(["Das Geburtsdatum darf nicht in der Zukunft liegen."]);
    expect(db.select().from(participants).all()).toHaveLength(0);
    expect(db.select().from(guardians).all()).toHaveLength(0);
  });

  it("says a birth date in the future with a missing field's message, not on the next save (forms' audit)", async () => {
    const camp = createEvent();
    const { cookie } = await parent();
    const response = await submit(camp.id, cookie, {
      ...form({ intent: "save-0" }),
      ...NEW_CHILD,
      "boxes[0].child.lastName": "",
      "boxes[0].child.birthDate": daysFromToday(1),
    });
    expect(response.status).toBe(400);
    const { errors } = await body<Answer>(response);
    expect(errors["boxes[0].child.lastName"]).toHaveLength(1);
    expect(errors["boxes[0].child.birthDate"]).toEqual(["Das Geburtsdatum darf nicht in der Zukunft liegen."]);
    expect(db.select().from(participants).all()).toHaveLength(0);
  });
});

describe("one round of errors", () => {
  it("names every mistake of every box, the payment, the terms and the SEPA section at once", async () => {
    const camp = createEvent({ tshirtSizeRequired: true, permitsRequired: true });
    const { user, cookie } = await parent();
    const mia = child(user.id);
    const response = await submit(camp.id, cookie, {
      ...form({ terms: "", paymentMethod: "sepa" }),
      "boxes[0].participant": String(mia.id),
      "boxes[1].participant": "neu",
      "boxes[1].child.firstName": "Ole",
      "boxes[1].child.birthDate": daysFromToday(3),
      "boxes[1].birthdateOfInsured": daysFromToday(2),
      "boxes[1].guardian": "neu",
      "sepa.iban": "DE00",
      "sepa.postalCode": "123",
    });
    expect(response.status).toBe(400);
    const { errors } = await body<Answer>(response);
    expect(Object.keys(errors).sort()).toEqual(
      [
        "terms",
        ...["tshirtSize", "guardian", "allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe"].map((f) => `boxes[0].${f}`),
        ...["tshirtSize", "allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe", "birthdateOfInsured"].map((f) => `boxes[1].${f}`),
        ...["lastName", "street", "city", "birthDate"].map((f) => `boxes[1].child.${f}`),
        ...["firstName", "lastName"].map((f) => `boxes[1].newGuardian.${f}`),
        ...["firstName", "lastName", "street", "postalCode", "city", "iban", "consentMandate", "consentPrivacy"].map((f) => `sepa.${f}`),
      ].sort(),
    );
    expect(errors["boxes[1].child.birthDate"]).toEqual(["Das Geburtsdatum darf nicht in der Zukunft liegen."]);
    expect(db.select().from(registrations).all()).toHaveLength(0);
  });
});

describe("the registration deadline", () => {
  it("after it, takes free places only and puts no one on the waiting list", async () => {
    const camp = createEvent({ capacity: 2, registrationDeadline: daysFromToday(-1) });
    const { user, cookie } = await parent();
    const [a, b, c] = [child(user.id, "Anna", "2000-01-01"), child(user.id, "Ben", "2000-01-01"), child(user.id, "Cem", "2000-01-01")];
    const refused = await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(a.id), "boxes[1].participant": String(b.id), "boxes[2].participant": String(c.id) });
    expect(refused.status).toBe(400);
    expect((await body<Answer>(refused)).errors[""]).toEqual(["Der Anmeldeschluss ist vorbei: Es sind nur noch 2 Plätze frei. Bitte melde höchstens 2 Kinder an."]);
    expect(db.select().from(registrations).all()).toHaveLength(0);
    expect((await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(a.id), "boxes[1].participant": String(b.id) })).status).toBe(302);
    const full = await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(c.id) });
    expect((await body<Answer>(full)).errors[""]).toEqual(["Der Anmeldeschluss ist vorbei und alle Plätze sind vergeben. Eine Anmeldung ist nicht mehr möglich."]);
    expect(db.select().from(registrations).all().map((r) => r.waitingListPosition)).toEqual([null, null]);
    // The event page says so, and links the enrolment's confirmation.
    const page = await body<{ closed: boolean; enrolments: { id: number }[] }>(await run(eventLoader, get(`/freizeit/${camp.id}`, { cookie, params: { id: String(camp.id) } })));
    expect(page.closed).toBe(true);
    expect(page.enrolments).toHaveLength(1);
  });

  it("before it, a full event still takes enrolments onto the waiting list", async () => {
    const camp = createEvent({ capacity: 1, registrationDeadline: daysFromToday(5) });
    const { user, cookie } = await parent();
    const [a, b] = [child(user.id, "Anna", "2000-01-01"), child(user.id, "Ben", "2000-01-01")];
    expect((await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(a.id), "boxes[1].participant": String(b.id) })).status).toBe(302);
    expect(db.select().from(registrations).all().map((r) => r.waitingListPosition)).toEqual([null, 1]);
  });
});

describe("the answers of a registration", () => {
  it("stay as given when the same child is enrolled again elsewhere; the child keeps the latest as defaults", async () => {
    const [spring, summer] = [createEvent({ title: "Frühling" }), createEvent({ title: "Sommer", inDays: 60 })];
    const { user, cookie } = await parent();
    const mia = child(user.id, "Mia", "2000-01-01");
    const box = { "boxes[0].participant": String(mia.id), "boxes[0].tshirtSize": "M", "boxes[0].specialNeeds": "Nussallergie", "boxes[0].nameOfInsured": "Eva Muster" };
    expect((await submit(spring.id, cookie, { ...form({}), ...box })).status).toBe(302);
    expect((await submit(summer.id, cookie, { ...form({}), ...box, "boxes[0].tshirtSize": "L", "boxes[0].specialNeeds": "", "boxes[0].nameOfInsured": "" })).status).toBe(302);
    const rows = db.select().from(registrations).orderBy(registrations.id).all();
    expect(rows.map((r) => [r.tshirtSize, r.specialNeeds, r.nameOfInsured])).toEqual([
      ["M", "Nussallergie", "Eva Muster"],
      ["L", "", ""],
    ]);
    // An empty field clears the default too.
    expect(db.select().from(participants).get()).toMatchObject({ tshirtSize: "L", specialNeeds: "", nameOfInsured: "" });
  });
});

describe("one enrolment, one payment", () => {
  it("takes the sibling discount off each further child, leaves waiting children out of the total, and counts earlier enrolments", async () => {
    const camp = createEvent({ priceCents: 24950, siblingDiscountCents: 2000, capacity: 3 });
    const { user, cookie } = await parent();
    const [a, b, c, d] = ["Anna", "Ben", "Cem", "Dana"].map((name) => child(user.id, name, "2000-01-01"));
    const first = await confirmationOf(await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(a.id) }), cookie);
    expect((await body<{ enrolment: { totalCents: number } }>(first)).enrolment.totalCents).toBe(24950);
    const response = await submit(camp.id, cookie, {
      ...form({}),
      "boxes[0].participant": String(b.id),
      "boxes[1].participant": String(c.id),
      "boxes[2].participant": String(d.id),
    });
    const page = await body<{ enrolment: { totalCents: number; reference: string; children: { amountCents: number | null; waitingListPosition: number | null }[] } }>(
      await confirmationOf(response, cookie),
    );
    expect(page.enrolment.children.map((r) => [r.amountCents, r.waitingListPosition])).toEqual([
      [22950, null],
      [22950, null],
      [null, 1],
    ]);
    expect(page.enrolment.totalCents).toBe(45900);
    const mail = outbox()[0].text;
    expect(mail).toMatch(/Gesamtbetrag: 459,00\s€ \(mit Geschwisterrabatt\)/);
    expect(mail).toContain(`Verwendungszweck: ${page.enrolment.reference}`);
    expect(mail).toContain("Für das Kind auf der Warteliste zahlst du erst, wenn es einen Platz bekommt");
  });

  it("shows the confirmation only to the account that enrolled, and to admins", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const mia = child(user.id, "Mia", "2000-01-01");
    const response = await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(mia.id) });
    const location = response.headers.get("Location")!;
    const params = { enrolmentId: location.split("/").pop()! };
    const other = await sessionCookieFor((await createUser()).id);
    const refused = await run(confirmationLoader, get(location, { cookie: other, params }));
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe("Diese Anmeldung wurde nicht gefunden.");
    const admin = await sessionCookieFor((await createUser({ role: "admin" })).id);
    expect((await run(confirmationLoader, get(location, { cookie: admin, params }))).status).toBe(200);
    expect((await run(confirmationLoader, get("/anmeldung/abc", { cookie, params: { enrolmentId: "abc" } }))).status).toBe(404);
  });
});
