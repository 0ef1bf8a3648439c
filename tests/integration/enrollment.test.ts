import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { enrolments, guardians, participants, registrations, sepaMandates } from "../../db/schema";
import { enrol, EnrolmentError } from "~/models/enrollment.server";
import { getFamily } from "~/models/family.server";
import { getParticipantList } from "~/models/review.server";
import { getRegistrationDetail } from "~/models/review-detail.server";
import { parseListQuery } from "~/lib/review-filter";
import { loader as confirmationLoader } from "~/routes/anmeldung.$enrolmentId";
import { action as enrollAction, loader as enrollLoader } from "~/routes/enroll.$eventId";
import { db } from "~/services/db.server";
import { createEvent, daysFromToday } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, outbox, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

type Answer = { errors: Record<string, string[]>; payload: { boxes: Record<string, unknown>[] } };

async function parent() {
  const user = await createUser({ firstName: "Eva", lastName: "Muster" });
  return { user, cookie: await sessionCookieFor(user.id), session: { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: "user" as const } };
}

function child(userId: number, birthDate = "2015-05-01", firstName = "Mia") {
  return db.insert(participants).values({ userId, firstName, lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate }).returning().get();
}

function guardian(userId: number) {
  return db.insert(guardians).values({ userId, firstName: "Eva", lastName: "Muster" }).returning().get();
}

let key = 0;
function form(fields: Record<string, string>) {
  return { submissionKey: `schluessel-${Date.now()}-${++key}`, referral: "", paymentMethod: "transfer", terms: "on", intent: "submit", ...fields };
}

function submit(eventId: number, cookie: string, fields: Record<string, string>) {
  return run(enrollAction, post(`/enroll/${eventId}`, fields, { cookie, params: { eventId: String(eventId) } }));
}

const SEPA = {
  "sepa.firstName": "Eva",
  "sepa.lastName": "Muster",
  "sepa.street": "Hauptstraße 5",
  "sepa.postalCode": "24103",
  "sepa.city": "Kiel",
  "sepa.iban": "DE89 3704 0044 0532 0130 00",
  "sepa.consentMandate": "on",
  "sepa.consentPrivacy": "on",
};

function count() {
  return db.select().from(registrations).all().length;
}

/** The confirmation page a successful submit leads to. */
async function confirmation(response: Response, cookie: string) {
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  expect(location).toMatch(/^\/anmeldung\/\d+$/);
  const id = location.split("/").pop()!;
  return body<{
    enrolment: { reference: string; totalCents: number; children: { firstName: string; waitingListPosition: number | null; amountCents: number | null }[] };
    codes: { size: number; d: string }[];
  }>(await run(confirmationLoader, get(location, { cookie, params: { enrolmentId: id } })));
}

describe("the enrolment form", () => {
  it("needs a signed-in user and an event that takes registrations", async () => {
    const camp = createEvent();
    const open = createEvent({ requiresApplication: false });
    const { cookie } = await parent();
    expect((await run(enrollLoader, get(`/enroll/${camp.id}`, { params: { eventId: String(camp.id) } }))).headers.get("Location")).toBe(
      `/login?redirectTo=%2Fenroll%2F${camp.id}`,
    );
    const missing = await run(enrollLoader, get("/enroll/999", { cookie, params: { eventId: "999" } }));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("Die Freizeit wurde nicht gefunden oder konnte nicht geladen werden");
    // An event without registration: back to its page with a word why, not 'not found'.
    const noForm = await run(enrollLoader, get(`/enroll/${open.id}`, { cookie, params: { eventId: String(open.id) } }));
    expect(noForm.status).toBe(302);
    expect(noForm.headers.get("Location")).toBe(`/freizeit/${open.id}`);
    expect(noForm.headers.get("Set-Cookie")).toContain("lf_flash");
    // A staff-only one stays unknown to a parent.
    const hidden = createEvent({ requiresApplication: false, onlyStaffVisible: true });
    expect((await run(enrollLoader, get(`/enroll/${hidden.id}`, { cookie, params: { eventId: String(hidden.id) } }))).status).toBe(404);
  });

  it("adds and removes boxes without losing what was typed", async () => {
    const camp = createEvent();
    const { cookie } = await parent();
    const added = await body<{ payload: { boxes: Record<string, unknown>[]; referral: string } }>(
      await submit(camp.id, cookie, { ...form({ intent: "add" }), "boxes[0].participant": "neu", "boxes[0].child.firstName": "Ida", referral: "Freunde" }),
    );
    expect(added.payload.boxes).toHaveLength(2);
    expect(added.payload.boxes[0]).toMatchObject({ participant: "neu", child: { firstName: "Ida" } });
    expect(added.payload.referral).toBe("Freunde");
    const removed = await body<{ payload: { boxes: Record<string, unknown>[] } }>(
      await submit(camp.id, cookie, { ...form({ intent: "remove-0" }), "boxes[0].participant": "neu", "boxes[1].participant": "neu", "boxes[1].child.firstName": "Ole" }),
    );
    expect(removed.payload.boxes).toEqual([expect.objectContaining({ child: { firstName: "Ole" } })]);
    expect(count()).toBe(0);
  });
});

/** A new child typed into the first box, all but its birth date. */
const newIda = {
  "boxes[0].participant": "neu",
  "boxes[0].child.firstName": "Ida",
  "boxes[0].child.lastName": "Muster",
  "boxes[0].child.street": "Weg 2",
  "boxes[0].child.city": "Kiel",
};

describe("saving a box", () => {
  it("stores a new child and guardian in the account and picks them", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const response = await submit(camp.id, cookie, {
      ...form({ intent: "save-0" }),
      ...newIda,
      "boxes[0].child.birthDate": "2014-02-02",
      "boxes[0].guardian": "neu",
      "boxes[0].newGuardian.firstName": "Eva",
      "boxes[0].newGuardian.lastName": "Muster",
    });
    expect(response.status).toBe(200);
    const ida = db.select().from(participants).where(eq(participants.userId, user.id)).get()!;
    const eva = db.select().from(guardians).where(eq(guardians.userId, user.id)).get()!;
    const answer = await body<{ payload: { boxes: Record<string, unknown>[] }; saved?: { index: number; text: string } }>(response);
    expect(answer.payload.boxes[0]).toMatchObject({ participant: String(ida.id), guardian: String(eva.id) });
    expect(answer.saved).toEqual({ index: 0, text: "Gespeichert: Ida Muster und Eva Muster sind jetzt in deinem Konto und hier ausgewählt." });
    expect(count()).toBe(0);
  });

  it("takes a birth date typed the German way, as a browser without a date picker sends it", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const response = await submit(camp.id, cookie, {
      ...form({ intent: "save-0" }),
      ...newIda,
      "boxes[0].child.birthDate": "2.2.2014",
    });
    expect(response.status).toBe(200);
    expect(db.select().from(participants).where(eq(participants.userId, user.id)).get()).toMatchObject({ firstName: "Ida", birthDate: "2014-02-02" });
  });

  it("names the missing fields and saves nothing", async () => {
    const camp = createEvent();
    const { cookie } = await parent();
    const response = await submit(camp.id, cookie, { ...form({ intent: "save-0" }), "boxes[0].participant": "neu", "boxes[0].child.firstName": "Ida" });
    expect(response.status).toBe(400);
    expect((await body<{ saved?: unknown }>(response.clone())).saved).toBeUndefined();
    expect(Object.keys((await body<Answer>(response)).errors).sort()).toEqual([
      "boxes[0].child.birthDate",
      "boxes[0].child.city",
      "boxes[0].child.lastName",
      "boxes[0].child.street",
    ]);
    expect(db.select().from(participants).all()).toHaveLength(0);
  });
});

describe("submitting", () => {
  it("enrols an existing and a new child by bank transfer and mails the parent the account and reference", async () => {
    const camp = createEvent({ title: "Ostseefreizeit", priceCents: 24900 });
    const { user, cookie } = await parent();
    const mia = child(user.id);
    const eva = guardian(user.id);
    const response = await submit(camp.id, cookie, {
      ...form({}),
      "boxes[0].participant": String(mia.id),
      "boxes[0].guardian": String(eva.id),
      "boxes[1].participant": "neu",
      "boxes[1].child.firstName": "Ben",
      "boxes[1].child.lastName": "Muster",
      "boxes[1].child.street": "Hauptstr. 1",
      "boxes[1].child.city": "Kiel",
      "boxes[1].child.birthDate": "2016-03-02",
      "boxes[1].guardian": "neu",
      "boxes[1].newGuardian.firstName": "Jan",
      "boxes[1].newGuardian.lastName": "Muster",
    });
    const page = await confirmation(response, cookie);
    expect(page.enrolment.children.map((r) => r.firstName)).toEqual(["Mia", "Ben"]);
    expect(page.enrolment.totalCents).toBe(49800);
    expect(page.codes.map((c) => c.d)).toHaveLength(1);
    expect(page.codes[0].d).toMatch(/^M4 4h7v1h-7z/);
    expect(count()).toBe(2);
    expect(db.select().from(participants).where(eq(participants.userId, user.id)).all()).toHaveLength(2);
    const [mail] = outbox();
    expect(mail.subject).toBe("Anmeldung: Ostseefreizeit");
    expect(mail.text).toContain("- Mia Muster: Anmeldung eingegangen – Bestätigung ausstehend, 249,00");
    expect(mail.text).toContain("Gesamtbetrag: 498,00");
    expect(mail.text).toContain("IBAN: DE02 1203 0000 0000 2020 51");
    expect(mail.text).toContain(`Verwendungszweck: ${page.enrolment.reference}`);
    expect(page.enrolment.reference).toMatch(/^LF-\d+-A\d+$/);
    // One reference for the whole enrolment: both registrations belong to it.
    expect(new Set(db.select().from(registrations).all().map((r) => r.enrolmentId)).size).toBe(1);
  });

  it.each([
    ["a guardian for a child under 18", { "boxes[0].guardian": "" }, "boxes[0].guardian"],
    ["the terms", { terms: "" }, "terms"],
    ["a payment method", { paymentMethod: "" }, "paymentMethod"],
    ["a valid mandate for SEPA", { paymentMethod: "sepa", ...SEPA, "sepa.iban": "DE89370400440532013001" }, "sepa.iban"],
    ["both consents for SEPA", { paymentMethod: "sepa", ...SEPA, "sepa.consentPrivacy": "" }, "sepa.consentPrivacy"],
    ["a referral text of at most 300 characters", { referral: "x".repeat(301) }, "referral"],
    [
      "a new guardian's e-mail that is one address",
      { "boxes[0].guardian": "neu", "boxes[0].newGuardian.firstName": "Eva", "boxes[0].newGuardian.lastName": "M", "boxes[0].newGuardian.email": "a@evil.test, b@evil.test" },
      "boxes[0].newGuardian.email",
    ],
  ])("refuses a submission without %s and writes nothing", async (_label, overrides, path) => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const mia = child(user.id);
    const eva = guardian(user.id);
    const response = await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(mia.id), "boxes[0].guardian": String(eva.id), ...overrides });
    expect(response.status).toBe(400);
    expect(Object.keys((await body<Answer>(response)).errors)).toContain(path);
    expect(count()).toBe(0);
    expect(db.select().from(sepaMandates).all()).toHaveLength(0);
    expect(outbox()).toHaveLength(0);
  });

  it("asks for T-shirt size, swim badge and all four permission answers when the event requires them", async () => {
    const camp = createEvent({ tshirtSizeRequired: true, swimBadgeRequired: true, permitsRequired: true });
    const { user, cookie } = await parent();
    const mia = child(user.id, "2000-01-01");
    const fields = { ...form({}), "boxes[0].participant": String(mia.id), "boxes[0].allowedToWander": "ja" };
    const refused = await body<Answer>(await submit(camp.id, cookie, fields));
    expect(Object.keys(refused.errors).sort()).toEqual(["boxes[0].allowedToCanoe", "boxes[0].allowedToSwim", "boxes[0].canSwim", "boxes[0].swimBadge", "boxes[0].tshirtSize"]);
    const ok = await submit(camp.id, cookie, {
      ...fields,
      "boxes[0].tshirtSize": "M",
      "boxes[0].swimBadge": "Bronze",
      "boxes[0].allowedToSwim": "nein",
      "boxes[0].canSwim": "ja",
      "boxes[0].allowedToCanoe": "ja",
    });
    expect(ok.status).toBe(302);
    expect(db.select().from(registrations).get()).toMatchObject({ allowedToWander: true, allowedToSwim: false, canSwim: true, allowedToCanoe: true, tshirtSize: "M", swimBadge: "Bronze" });
    expect(db.select().from(participants).get()).toMatchObject({ tshirtSize: "M", swimBadge: "Bronze" });
  });

  it("does not need a guardian for a participant who is 18 when the event starts", async () => {
    const camp = createEvent({ dateFrom: daysFromToday(30) });
    const { user, cookie } = await parent();
    const [y, m, d] = daysFromToday(30).split("-").map(Number);
    const adult = child(user.id, `${y - 18}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`, "Lea");
    expect((await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(adult.id) })).status).toBe(302);
  });

  it("refuses a child or guardian of another account as if none were chosen", async () => {
    const camp = createEvent();
    const { cookie } = await parent();
    const other = await createUser();
    const foreignChild = child(other.id);
    const foreignGuardian = guardian(other.id);
    const response = await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(foreignChild.id), "boxes[0].guardian": String(foreignGuardian.id) });
    expect(response.status).toBe(400);
    expect(Object.keys((await body<Answer>(response)).errors)).toContain("boxes[0].participant");
    const { user } = await parent();
    const mine = child(user.id);
    const second = await submit(camp.id, await sessionCookieFor(user.id), { ...form({}), "boxes[0].participant": String(mine.id), "boxes[0].guardian": String(foreignGuardian.id) });
    expect(Object.keys((await body<Answer>(second)).errors)).toContain("boxes[0].guardian");
    expect(count()).toBe(0);
  });

  it("creates one set for a repeated submission and refuses a child already registered", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const mia = child(user.id);
    const eva = guardian(user.id);
    const fields = { ...form({}), "boxes[0].participant": String(mia.id), "boxes[0].guardian": String(eva.id) };
    const first = await submit(camp.id, cookie, fields);
    const again = await submit(camp.id, cookie, fields);
    expect(first.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(count()).toBe(1);
    expect(db.select().from(enrolments).all()).toHaveLength(1);
    expect(outbox()).toHaveLength(1);
    const fresh = await submit(camp.id, cookie, { ...fields, submissionKey: "ein-anderer-schluessel-123" });
    expect(fresh.status).toBe(400);
    expect((await body<Answer>(fresh)).errors["boxes[0].participant"]).toEqual(["Mia Muster ist bereits für diese Veranstaltung angemeldet."]);
    expect(count()).toBe(1);
  });

  it("creates a SEPA mandate, then finds it for the next enrolment and lets it be corrected until paid", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const [mia, ben] = [child(user.id, "2000-01-01", "Mia"), child(user.id, "2000-02-01", "Ben")];
    expect((await submit(camp.id, cookie, { ...form({ paymentMethod: "sepa" }), ...SEPA, "boxes[0].participant": String(mia.id) })).status).toBe(302);
    const mandate = db.select().from(sepaMandates).get()!;
    expect(mandate).toMatchObject({ iban: "DE89370400440532013000", postalCode: "24103", userId: user.id, eventId: camp.id });
    const loaded = await body<{ mandate: { id: number }; defaults: { paymentMethod: string } }>(
      await run(enrollLoader, get(`/enroll/${camp.id}`, { cookie, params: { eventId: String(camp.id) } })),
    );
    expect(loaded.mandate.id).toBe(mandate.id);
    expect(loaded.defaults.paymentMethod).toBe("sepa");
    // The payment choice is locked: a forged 'transfer' still uses the mandate.
    expect((await submit(camp.id, cookie, { ...form({ paymentMethod: "transfer" }), "boxes[0].participant": String(ben.id) })).status).toBe(302);
    expect(db.select().from(registrations).all().map((r) => [r.paymentMethod, r.sepaMandateId])).toEqual([
      ["sepa", mandate.id],
      ["sepa", mandate.id],
    ]);
    expect(db.select().from(sepaMandates).all()).toHaveLength(1);

    // Corrected with the next enrolment while nothing is paid …
    const lea = child(user.id, "2000-03-01", "Lea");
    expect(
      (await submit(camp.id, cookie, { ...form({ paymentMethod: "sepa" }), ...SEPA, "sepa.iban": "AT61 1904 3002 3457 3201", "sepa.postalCode": "6020", "boxes[0].participant": String(lea.id) })).status,
    ).toBe(302);
    expect(db.select().from(sepaMandates).get()!.iban).toBe("AT611904300234573201");
    // … but not once a payment is confirmed.
    db.update(registrations).set({ paid: true }).where(eq(registrations.participantId, mia.id)).run();
    const ida = child(user.id, "2000-04-01", "Ida");
    const refused = await submit(camp.id, cookie, { ...form({ paymentMethod: "sepa" }), ...SEPA, "boxes[0].participant": String(ida.id) });
    expect(refused.status).toBe(400);
    expect((await body<Answer>(refused)).errors.sepa).toEqual(["Das Mandat ist schon eingezogen und kann nicht mehr geändert werden."]);
    expect(db.select().from(sepaMandates).get()!.iban).toBe("AT611904300234573201");
  });
});

describe("capacity", () => {
  it("puts enrolments beyond the places on the waiting list, in order of arrival", async () => {
    const camp = createEvent({ capacity: 1 });
    const { user, cookie } = await parent();
    const [a, b, c] = [child(user.id, "2000-01-01", "Anna"), child(user.id, "2000-01-02", "Ben"), child(user.id, "2000-01-03", "Cem")];
    const page = await confirmation(
      await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(a.id), "boxes[1].participant": String(b.id), "boxes[2].participant": String(c.id) }),
      cookie,
    );
    expect(page.enrolment.children.map((r) => [r.firstName, r.waitingListPosition])).toEqual([
      ["Anna", null],
      ["Ben", 1],
      ["Cem", 2],
    ]);
    expect(outbox()[0].text).toContain("- Ben Muster: Warteliste (Platz 1)");
  });

  it("shows the place in line, not the stored position, once someone ahead has left the waiting list", async () => {
    // Found by both reviews: after two left the list, a new child was told 'Platz 23' with 20
    // ahead, and the leaders' list began at 'Platz 2'.
    const camp = createEvent({ capacity: 1 });
    const { user, cookie } = await parent();
    const kids = ["Anna", "Ben", "Cem", "Dua"].map((name, i) => child(user.id, `2000-01-0${i + 1}`, name));
    const fields = Object.fromEntries(kids.map((kid, i) => [`boxes[${i}].participant`, String(kid.id)]));
    await submit(camp.id, cookie, { ...form({}), ...fields });
    // Ben (stored position 1) leaves the list: Cem is first in line now, Dua second.
    const ben = db.select().from(registrations).where(eq(registrations.participantId, kids[1].id)).get()!;
    db.update(registrations).set({ applicationStatus: "cancelled", waitingListPosition: null }).where(eq(registrations.id, ben.id)).run();

    const late = child(user.id, "2000-02-01", "Emil");
    const page = await confirmation(await submit(camp.id, cookie, { ...form({}), "boxes[0].participant": String(late.id) }), cookie);
    expect(page.enrolment.children.map((r) => [r.firstName, r.waitingListPosition])).toEqual([["Emil", 3]]);
    const waitingOnly = outbox().find((mail) => mail.text.includes("Emil"))!.text;
    expect(waitingOnly).toContain("- Emil Muster: Warteliste (Platz 3)");
    // Only on the waiting list: no promise of a confirmation (parents' review).
    expect(waitingOnly).toContain("Sobald ein Platz frei wird, bekommst du eine E-Mail und kannst ihn annehmen.");
    expect(waitingOnly).not.toContain("ihre Entscheidung bekommst du");

    const family = getFamily(user.id);
    const shown = Object.fromEntries(family.children.map((c) => [c.firstName, c.registrations.map((r) => r.waitingListPosition)]));
    expect(shown).toMatchObject({ Anna: [null], Ben: [null], Cem: [1], Dua: [2], Emil: [3] });
    const list = getParticipantList(camp.id, 1, parseListQuery(new URLSearchParams()), false);
    expect(list.waiting.map((r) => [r.firstName, r.waitingListPosition])).toEqual([["Cem", 1], ["Dua", 2], ["Emil", 3]]);
    const cem = db.select().from(registrations).where(eq(registrations.participantId, kids[2].id)).get()!;
    expect(getRegistrationDetail(cem.id)!.registration.waitingListPosition).toBe(1);
  });

  it("never overbooks: 50 enrolments in quick succession for 10 places give 10 places and 40 waiting, none lost", async () => {
    const camp = createEvent({ capacity: 10 });
    const families = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const { session } = await parent();
        return { session, child: child(session.id, "2000-01-01", `Kind${i}`) };
      }),
    );
    const results = await Promise.all(
      families.map(async ({ session, child: kid }, i) => {
        await new Promise((resolve) => setTimeout(resolve, i % 3));
        return enrol(camp.id, session, {
          submissionKey: `gleichzeitig-${i}-abcdefghijkl`,
          boxes: [{ participant: String(kid.id), specialNeeds: "", nameOfInsured: "" }],
          referral: "",
          paymentMethod: "transfer",
          sepa: null,
        });
      }),
    );
    expect(new Set(results.map((r) => r.enrolmentId)).size).toBe(50);
    const rows = db.select().from(registrations).where(eq(registrations.eventId, camp.id)).orderBy(registrations.id).all();
    expect(rows).toHaveLength(50);
    expect(rows.filter((r) => r.waitingListPosition === null)).toHaveLength(10);
    const waiting = rows.filter((r) => r.waitingListPosition !== null);
    // Positions follow the order in which the registrations were written: 1 … 40, no gaps.
    expect(waiting.map((r) => r.waitingListPosition)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("refuses enrolment once the event has started", async () => {
    const camp = createEvent({ inDays: -1 });
    const { session } = await parent();
    const kid = child(session.id, "2000-01-01");
    await expect(
      enrol(camp.id, session, { submissionKey: "zu-spaet-abcdefghijklmn", boxes: [{ participant: String(kid.id), specialNeeds: "", nameOfInsured: "" }], referral: "", paymentMethod: "transfer", sepa: null }),
    ).rejects.toThrow(EnrolmentError);
    expect(count()).toBe(0);
  });
});
