import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { comments, guardians, participants, registrations } from "../../db/schema";
import { action as adminAction, loader as adminLoader } from "~/routes/account.$id";
import { action as accountAction, loader as accountLoader } from "~/routes/account._index";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

const child = {
  intent: "participant",
  formId: "child-new",
  firstName: "Mia",
  lastName: "Muster",
  street: "Hauptstr. 1",
  postalCode: "24103",
  city: "Kiel",
  birthDate: "2015-05-01",
  tshirtSize: "M",
  specialNeeds: "Vegetarisch",
};

type Family = { family: { children: { id: number; firstName: string; registrations: { title: string }[]; comments: { text: string }[] }[]; guardians: { firstName: string }[] } };

describe("tab 'Deine Teilnehmer*innen'", () => {
  it("creates and edits a child and a guardian and lists the child's registrations and comments", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const created = await run(accountAction, post("/account", child, { cookie }));
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/account?tab=teilnehmer");
    const mia = db.select().from(participants).where(eq(participants.userId, user.id)).get()!;
    expect(mia).toMatchObject({ firstName: "Mia", tshirtSize: "M", specialNeeds: "Vegetarisch", postalCode: "24103" });

    expect((await run(accountAction, post("/account", { ...child, formId: `child-${mia.id}`, id: String(mia.id), firstName: "Mila" }, { cookie }))).status).toBe(302);
    expect(db.select().from(participants).where(eq(participants.id, mia.id)).get()!.firstName).toBe("Mila");

    expect((await run(accountAction, post("/account", { intent: "guardian", formId: "guardian-new", firstName: "Eva", lastName: "Muster", mobilePhone: "0151 1234567" }, { cookie }))).status).toBe(302);
    const camp = createEvent({ title: "Zeltlager" });
    const leader = await createUser({ role: "admin", firstName: "Lena" });
    db.insert(registrations).values({ eventId: camp.id, participantId: mia.id, userId: user.id, paymentMethod: "transfer" }).run();
    db.insert(comments).values({ participantId: mia.id, eventId: camp.id, authorId: leader.id, text: "Hat super mitgemacht." }).run();

    const page = await body<Family>(await run(accountLoader, get("/account?tab=teilnehmer", { cookie })));
    expect(page.family.children).toEqual([
      expect.objectContaining({ firstName: "Mila", registrations: [expect.objectContaining({ title: "Zeltlager" })], comments: [expect.objectContaining({ text: "Hat super mitgemacht." })] }),
    ]);
    expect(page.family.guardians.map((g) => g.firstName)).toEqual(["Eva"]);
  });

  // Parents' walkthrough: the enrolment takes 500 characters of special needs into the child's
  // record, the account form 300 (spec); the parent could then not correct the postcode without
  // shortening an epilepsy note.
  it("saves a child whose stored special needs are longer than the account form takes, when they are left as they are", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const note = `Epilepsie: ${"Notfallmedikament im Rucksack, ".repeat(12)}`.trim();
    expect(note.length).toBeGreaterThan(300);
    const mia = db.insert(participants).values({ userId: user.id, firstName: "Mia", lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate: "2015-05-01", specialNeeds: note }).returning().get();
    const edit = { ...child, formId: `child-${mia.id}`, id: String(mia.id) };
    // Sent back as the form shows it, only the postcode changed.
    expect((await run(accountAction, post("/account", { ...edit, postalCode: "24105", specialNeeds: note }, { cookie }))).status).toBe(302);
    expect(db.select().from(participants).where(eq(participants.id, mia.id)).get()).toMatchObject({ postalCode: "24105", specialNeeds: note });
    // Changed, the note keeps to the account form's limit.
    const longer = await run(accountAction, post("/account", { ...edit, specialNeeds: `${note} Neu` }, { cookie }));
    expect(longer.status).toBe(400);
    expect((await body<{ errors: Record<string, string[]> }>(longer)).errors.specialNeeds).toEqual(["Höchstens 300 Zeichen"]);
  });

  it("takes a birth date typed the German way, as a browser without a date picker sends it", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    expect((await run(accountAction, post("/account", { ...child, birthDate: "1.5.2015" }, { cookie }))).status).toBe(302);
    expect(db.select().from(participants).where(eq(participants.userId, user.id)).get()!.birthDate).toBe("2015-05-01");
  });

  it("lists a child's registrations with the next event first, then the past ones, the latest first", async () => {
    const user = await createUser();
    expect((await run(accountAction, post("/account", child, { cookie: await sessionCookieFor(user.id) }))).status).toBe(302);
    const mia = db.select().from(participants).get()!;
    for (const [title, inDays] of [["Zeltlager", 60], ["Vorbei", -30], ["Kanutour", 20], ["Lange her", -400]] as const) {
      const event = createEvent({ title, inDays });
      db.insert(registrations).values({ eventId: event.id, participantId: mia.id, userId: user.id, paymentMethod: "transfer" }).run();
    }
    const { getFamily } = await import("~/models/family.server");
    expect(getFamily(user.id).children[0].registrations.map((r) => r.title)).toEqual(["Kanutour", "Zeltlager", "Vorbei", "Lange her"]);
  });

  it("refuses a day not in the calendar typed the German way, and shows it back as it was typed", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const refused = await run(accountAction, post("/account", { ...child, birthDate: "30.02.2015" }, { cookie }));
    expect(refused.status).toBe(400);
    const answer = await body<{ errors: Record<string, string[]>; values: Record<string, string> }>(refused);
    expect(answer.errors.birthDate).toHaveLength(1);
    expect(answer.values.birthDate).toBe("30.02.2015");
    expect(db.select().from(participants).all()).toHaveLength(0);
  });

  it("refuses a birth date in the future next to its field (DECISIONS: never in the future), for a new and an edited child", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const future = await run(accountAction, post("/account", { ...child, birthDate: "2099-01-01" }, { cookie }));
    expect(future.status).toBe(400);
    const answer = await body<{ errors: Record<string, string[]>; alert: { message: string } }>(future);
    expect(answer.errors.birthDate).toEqual(["Das Geburtsdatum darf nicht in der Zukunft liegen."]);
    // Every required field is there: the box's message does not say one is missing.
    expect(answer.alert.message).toBe("Bitte prüfe die markierten Felder.");
    expect(db.select().from(participants).all()).toHaveLength(0);

    expect((await run(accountAction, post("/account", child, { cookie }))).status).toBe(302);
    const mia = db.select().from(participants).get()!;
    const edited = await run(accountAction, post("/account", { ...child, formId: `child-${mia.id}`, id: String(mia.id), birthDate: "2099-01-01" }, { cookie }));
    expect(edited.status).toBe(400);
    expect(db.select().from(participants).get()!.birthDate).toBe("2015-05-01");
    // Today is fine: a baby's enrolment is for the event's rules to judge.
    const { berlinToday } = await import("~/lib/dates");
    expect((await run(accountAction, post("/account", { ...child, formId: `child-${mia.id}`, id: String(mia.id), birthDate: berlinToday() }, { cookie }))).status).toBe(302);
  });

  it("refuses a guardian's e-mail that is not one address, next to its field", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    for (const email of ["a@evil.test, b@evil.test", "@x.test", "eva@example"]) {
      const response = await run(accountAction, post("/account", { intent: "guardian", formId: "guardian-new", firstName: "Eva", lastName: "Muster", email }, { cookie }));
      expect([email, response.status]).toEqual([email, 400]);
      expect((await body<{ errors: Record<string, string[]> }>(response)).errors.email).toEqual(["Bitte gib eine gültige E-Mail-Adresse an."]);
    }
    expect(db.select().from(guardians).all()).toHaveLength(0);
    expect((await run(accountAction, post("/account", { intent: "guardian", formId: "guardian-new", firstName: "Eva", lastName: "Muster", email: "eva@example.org" }, { cookie }))).status).toBe(302);
  });

  it("creates one child for a repeated submission of the same form", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const form = { ...child, submissionKey: "kind-doppelklick-000001" };
    expect((await run(accountAction, post("/account", form, { cookie }))).status).toBe(302);
    expect((await run(accountAction, post("/account", form, { cookie }))).status).toBe(302);
    expect(db.select().from(participants).all()).toHaveLength(1);
    const guardianForm = { intent: "guardian", formId: "guardian-new", firstName: "Eva", lastName: "M", submissionKey: "person-doppelklick-00001" };
    await run(accountAction, post("/account", guardianForm, { cookie }));
    await run(accountAction, post("/account", guardianForm, { cookie }));
    expect(db.select().from(guardians).all()).toHaveLength(1);
  });

  it("answers missing required fields with the spec's message and saves nothing", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    for (const field of ["firstName", "lastName", "street", "city", "birthDate"]) {
      const response = await run(accountAction, post("/account", { ...child, [field]: "" }, { cookie }));
      expect(response.status).toBe(400);
      const answer = await body<{ alert: { title: string; message: string }; errors: Record<string, string[]> }>(response);
      expect(answer.alert).toEqual({ title: "Fehler beim Erstellen", message: "Bitte fülle alle Pflichtfelder aus!" });
      expect(answer.errors[field]).toEqual(["Bitte fülle alle Pflichtfelder aus!"]);
    }
    const tooLong = await run(accountAction, post("/account", { ...child, specialNeeds: "x".repeat(301) }, { cookie }));
    expect(tooLong.status).toBe(400);
    expect(db.select().from(participants).all()).toHaveLength(0);
  });

  it("refuses to edit another account's child or guardian", async () => {
    const owner = await createUser();
    const mia = db.insert(participants).values({ userId: owner.id, firstName: "Mia", lastName: "M", street: "S 1", city: "K", birthDate: "2015-01-01" }).returning().get();
    const eva = db.insert(guardians).values({ userId: owner.id, firstName: "Eva", lastName: "M" }).returning().get();
    const intruder = await createUser();
    const cookie = await sessionCookieFor(intruder.id);
    const forgedChild = await run(accountAction, post("/account", { ...child, id: String(mia.id), firstName: "Gehackt" }, { cookie }));
    expect(forgedChild.status).toBe(404);
    const forgedGuardian = await run(accountAction, post("/account", { intent: "guardian", id: String(eva.id), firstName: "Gehackt", lastName: "X" }, { cookie }));
    expect(forgedGuardian.status).toBe(404);
    expect(db.select().from(participants).where(eq(participants.id, mia.id)).get()!.firstName).toBe("Mia");
    expect(db.select().from(guardians).where(eq(guardians.id, eva.id)).get()!.firstName).toBe("Eva");
  });

  it("lets an admin see and edit another user's children on /account/{id}", async () => {
    const owner = await createUser();
    const mia = db.insert(participants).values({ userId: owner.id, firstName: "Mia", lastName: "M", street: "S 1", city: "K", birthDate: "2015-01-01" }).returning().get();
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const params = { id: String(owner.id) };
    const page = await body<Family>(await run(adminLoader, get(`/account/${owner.id}?tab=teilnehmer`, { cookie, params })));
    expect(page.family.children.map((c) => c.firstName)).toEqual(["Mia"]);
    const saved = await run(adminAction, post(`/account/${owner.id}`, { ...child, id: String(mia.id), firstName: "Maja" }, { cookie, params }));
    expect(saved.headers.get("Location")).toBe(`/account/${owner.id}?tab=teilnehmer`);
    expect(db.select().from(participants).where(eq(participants.id, mia.id)).get()!.firstName).toBe("Maja");
  });
});
