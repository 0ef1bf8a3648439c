// Issue 9, review at 360 px: the guardian a box starts with (never 'Keine' for a minor by
// default), 'Keine (ab 18 Jahren)' as an explicit choice, and one message per unanswered
// permission question.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { guardians, participants, registrations } from "../../db/schema";
import { action as enrollAction, loader as enrollLoader } from "~/routes/enroll.$eventId";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

type Defaults = { defaults: { boxes: Record<string, string>[] } };
type Answer = { errors: Record<string, string[]>; payload: { boxes: Record<string, string>[] } };

async function parent() {
  const user = await createUser({ firstName: "Eva", lastName: "Muster" });
  return { user, cookie: await sessionCookieFor(user.id) };
}

function child(userId: number, firstName: string, birthDate = "2015-05-01") {
  return db.insert(participants).values({ userId, firstName, lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate }).returning().get();
}

function guardian(userId: number, firstName: string) {
  return db.insert(guardians).values({ userId, firstName, lastName: "Muster" }).returning().get();
}

let key = 0;
function form(fields: Record<string, string>) {
  return { submissionKey: `vorgabe-${Date.now()}-${++key}-abcdef`, referral: "", paymentMethod: "transfer", terms: "on", intent: "submit", ...fields };
}

function submit(eventId: number, cookie: string, fields: Record<string, string>) {
  return run(enrollAction, post(`/enroll/${eventId}`, fields, { cookie, params: { eventId: String(eventId) } }));
}

async function firstBox(eventId: number, cookie: string) {
  const loaded = await body<Defaults>(await run(enrollLoader, get(`/enroll/${eventId}`, { cookie, params: { eventId: String(eventId) } })));
  return loaded.defaults.boxes[0];
}

describe("the guardian a box starts with", () => {
  it("is the account's only guardian, also in an added box", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    child(user.id, "Mia");
    const eva = guardian(user.id, "Eva");
    expect((await firstBox(camp.id, cookie)).guardian).toBe(String(eva.id));
    const added = await body<Answer>(await submit(camp.id, cookie, { ...form({ intent: "add" }), "boxes[0].participant": "neu", "boxes[0].guardian": "keine" }));
    expect(added.payload.boxes[1].guardian).toBe(String(eva.id));
  });

  it("is 'Bitte wählen' (no value) with two guardians, and the child's last guardian once it has one", async () => {
    const camp = createEvent();
    const earlier = createEvent({ title: "Frühere Freizeit" });
    const { user, cookie } = await parent();
    const mia = child(user.id, "Mia");
    guardian(user.id, "Eva");
    const tom = guardian(user.id, "Tom");
    expect((await firstBox(camp.id, cookie)).guardian).toBe("");
    expect((await submit(earlier.id, cookie, form({ "boxes[0].participant": String(mia.id), "boxes[0].guardian": String(tom.id) }))).status).toBe(302);
    expect((await firstBox(camp.id, cookie)).guardian).toBe(String(tom.id));
    // Without JavaScript, choosing the child ('Auswahl übernehmen') brings its last guardian too.
    const chosen = await body<Answer>(
      await submit(camp.id, cookie, { ...form({ intent: "refresh-teilnehmer-1" }), "boxes[0].participant": String(mia.id), "boxes[0].answersFor": "neu", "boxes[0].guardian": "" }),
    );
    expect(chosen.payload.boxes[0].guardian).toBe(String(tom.id));
  });
});

describe("the child an added box starts with", () => {
  // Screens' review: a second box started as 'Neues Kind anlegen' while saved children were left,
  // and a parent filled in a sibling the account already had.
  it("is the next saved child not chosen in another box and not registered yet, with its answers; then a new child", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const mia = child(user.id, "Mia");
    const ben = child(user.id, "Ben");
    const ole = child(user.id, "Ole");
    db.update(participants).set({ tshirtSize: "M" }).where(eq(participants.id, ole.id)).run();
    const eva = guardian(user.id, "Eva");
    // Ben already has a registration for this camp.
    expect((await submit(camp.id, cookie, form({ "boxes[0].participant": String(ben.id), "boxes[0].guardian": String(eva.id) }))).status).toBe(302);
    const box0 = { "boxes[0].participant": String(mia.id), "boxes[0].answersFor": String(mia.id), "boxes[0].guardian": String(eva.id) };
    const added = await body<Answer>(await submit(camp.id, cookie, { ...form({ intent: "add" }), ...box0 }));
    expect(added.payload.boxes[1]).toMatchObject({ participant: String(ole.id), answersFor: String(ole.id), tshirtSize: "M", guardian: String(eva.id) });
    const third = await body<Answer>(
      await submit(camp.id, cookie, { ...form({ intent: "add" }), ...box0, "boxes[1].participant": String(ole.id), "boxes[1].answersFor": String(ole.id), "boxes[1].guardian": String(eva.id) }),
    );
    expect(third.payload.boxes[2]).toMatchObject({ participant: "neu", guardian: String(eva.id) });
  });

  it("adding a box leaves what was typed in the other boxes, also under a child chosen without 'Auswahl übernehmen' (review)", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const mia = child(user.id, "Mia");
    const ben = child(user.id, "Ben");
    db.update(participants).set({ specialNeeds: "Gespeichert" }).where(eq(participants.id, ben.id)).run();
    // Box 1 showed Mia's answers; Ben was chosen and answers typed, without taking the choice over.
    const added = await body<Answer>(
      await submit(camp.id, cookie, { ...form({ intent: "add" }), "boxes[0].participant": String(ben.id), "boxes[0].answersFor": String(mia.id), "boxes[0].specialNeeds": "Neu getippt" }),
    );
    expect(added.payload.boxes[0]).toMatchObject({ participant: String(ben.id), specialNeeds: "Neu getippt" });
    expect(added.payload.boxes[1]).toMatchObject({ participant: String(mia.id), answersFor: String(mia.id) });
  });
});

// Parents' walkthrough without JavaScript: Lena's answers stood in the box, Tim was picked and the
// form sent without 'Auswahl übernehmen'; Tim was enrolled with Lena's allergy, and his own note
// in the account was overwritten.
describe("a child picked without 'Auswahl übernehmen', then sent", () => {
  it("is not enrolled with the other child's answers: what was still theirs becomes the picked child's saved answers, what was typed stays, and the parent is asked to check", async () => {
    const camp = createEvent({ tshirtSizeRequired: true, swimBadgeRequired: true });
    const { user, cookie } = await parent();
    const lena = child(user.id, "Lena");
    const tim = child(user.id, "Tim");
    db.update(participants).set({ specialNeeds: "Bienenstichallergie", tshirtSize: "XL", swimBadge: "Silber" }).where(eq(participants.id, lena.id)).run();
    db.update(participants).set({ specialNeeds: "Laktoseintoleranz", tshirtSize: "S", swimBadge: "Bronze" }).where(eq(participants.id, tim.id)).run();
    const eva = guardian(user.id, "Eva");
    const sent = form({
      "boxes[0].participant": String(tim.id),
      "boxes[0].answersFor": String(lena.id),
      "boxes[0].guardian": String(eva.id),
      "boxes[0].specialNeeds": "Bienenstichallergie",
      "boxes[0].tshirtSize": "XL",
      // Changed by the parent: stays.
      "boxes[0].swimBadge": "Gold",
    });
    const refused = await submit(camp.id, cookie, sent);
    expect(refused.status).toBe(400);
    const answer = await body<Answer>(refused);
    expect(answer.errors["boxes[0].participant"]).toEqual([
      "Die Angaben unten waren noch die von Lena. Jetzt stehen dort Tims gespeicherte Angaben, und was du geändert hast, ist geblieben: Bitte prüfe sie und melde dann an.",
    ]);
    expect(answer.payload.boxes[0]).toMatchObject({ participant: String(tim.id), answersFor: String(tim.id), specialNeeds: "Laktoseintoleranz", tshirtSize: "S", swimBadge: "Gold" });
    expect(db.select().from(registrations).all()).toEqual([]);
    expect(db.select().from(participants).where(eq(participants.id, tim.id)).get()!.specialNeeds).toBe("Laktoseintoleranz");
    // Sent again as shown: enrolled with Tim's answers.
    const again = await submit(camp.id, cookie, { ...sent, submissionKey: `${sent.submissionKey}-2`, ...Object.fromEntries(Object.entries(answer.payload.boxes[0]).filter(([, v]) => typeof v === "string").map(([k, v]) => [`boxes[0].${k}`, v])) });
    expect(again.status).toBe(302);
    expect(db.select().from(registrations).get()).toMatchObject({ participantId: tim.id, specialNeeds: "Laktoseintoleranz", swimBadge: "Gold" });
  });
});

// Parents' walkthrough: Back after enrolling showed the form for the next child with nothing
// saying the first was enrolled; a child whose offer ran out was missing from the choice without a
// word, and was typed in again as a new child.
describe("the children registered here already", () => {
  it("are named above the form: those still in, and those who cannot be chosen again with why", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const ben = child(user.id, "Ben");
    const tim = child(user.id, "Tim");
    const ida = child(user.id, "Ida");
    child(user.id, "Mia");
    const eva = guardian(user.id, "Eva");
    for (const kid of [ben, tim, ida]) expect((await submit(camp.id, cookie, form({ "boxes[0].participant": String(kid.id), "boxes[0].guardian": String(eva.id) }))).status).toBe(302);
    db.update(registrations).set({ applicationStatus: "cancelled" }).where(eq(registrations.participantId, tim.id)).run();
    db.update(registrations).set({ applicationStatus: "rejected" }).where(eq(registrations.participantId, ida.id)).run();
    const loaded = await body<{ alreadyEnrolled: { in: string[]; out: string[] } }>(await run(enrollLoader, get(`/enroll/${camp.id}`, { cookie, params: { eventId: String(camp.id) } })));
    expect(loaded.alreadyEnrolled).toEqual({ in: ["Ben Muster"], out: ["Ida Muster (abgelehnt)", "Tim Muster (storniert)"] });
  });
});

describe("'Keine (ab 18 Jahren)'", () => {
  it("enrols an adult without a guardian and refuses it for a minor", async () => {
    const camp = createEvent();
    const { user, cookie } = await parent();
    const jan = child(user.id, "Jan", "2000-01-01");
    const mia = child(user.id, "Mia");
    expect((await submit(camp.id, cookie, form({ "boxes[0].participant": String(jan.id), "boxes[0].guardian": "keine" }))).status).toBe(302);
    expect(db.select().from(registrations).where(eq(registrations.participantId, jan.id)).get()?.guardianId).toBeNull();
    const refused = await submit(camp.id, cookie, form({ "boxes[0].participant": String(mia.id), "boxes[0].guardian": "keine" }));
    expect(refused.status).toBe(400);
    expect((await body<Answer>(refused)).errors["boxes[0].guardian"]).toEqual(["Mia ist bei Beginn der Veranstaltung noch nicht 18: Bitte wähle eine erziehungsberechtigte Person."]);
  });
});

describe("unanswered permission questions", () => {
  it("get one message each, naming the question", async () => {
    const camp = createEvent({ permitsRequired: true });
    const { user, cookie } = await parent();
    const jan = child(user.id, "Jan", "2000-01-01");
    const refused = await body<Answer>(await submit(camp.id, cookie, form({ "boxes[0].participant": String(jan.id), "boxes[0].canSwim": "ja" })));
    const messages = ["allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe"].map((f) => refused.errors[`boxes[0].${f}`]?.[0] ?? null);
    expect(messages).toEqual(["„Darf wandern gehen?“ Bitte wähle Ja oder Nein.", "„Darf schwimmen gehen?“ Bitte wähle Ja oder Nein.", null, "„Darf Kanu fahren?“ Bitte wähle Ja oder Nein."]);
  });
});
