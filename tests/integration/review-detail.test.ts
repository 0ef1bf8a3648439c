// A registration's detail and its comments (issue 10, item 5): who sees it, what it shows, and
// the comment rules (at least 2 characters, each author edits only their own, applicants refused).
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { comments, enrolments, registrationHistory, registrations } from "../../db/schema";
import { action, loader } from "~/routes/freizeit.participants.participant-details.$registrationID";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { resetDatabase } from "../support/fixtures";
import { register } from "../support/lists-fixtures";
import { body, get, post, run } from "../support/remix";
import { campWithPeople, countStatements, type Person } from "../support/review-fixtures";

type Detail = {
  registration: { id: number; eventId: number; tshirtSize: string; specialNeeds: string; allowedToSwim: boolean | null; paymentMethod: string };
  participant: { id: number; firstName: string; lastName: string };
  guardian: { mobilePhone: string; phone: string } | null;
  reference: string | null;
  history: { action: string; reason: string; actor: string | null }[];
  comments: { id: number; text: string; author: string | null; mine: boolean; editedAt: number | null }[];
  editingId: number | null;
  may: { decideRegistrations: boolean; confirmPayments: boolean; viewSepa: boolean; comment: boolean };
};

let camp: Awaited<ReturnType<typeof campWithPeople>>;
let registrationId: number;
let participantId: number;
let otherEventRegistration: number;

const url = (id: number | string, search = "") => `/freizeit/participants/participant-details/${id}${search}`;
const open = (person: Person | null, id: number | string = registrationId, search = "") =>
  run(loader, get(url(id, search), { cookie: person ? camp.people[person].cookie : undefined, params: { registrationID: String(id) } }));
const send = (person: Person, form: Record<string, string>, id = registrationId, search = "") =>
  run(action, post(url(id, search), form, { cookie: camp.people[person].cookie, params: { registrationID: String(id) } }));
const commentRows = () => db.select().from(comments).where(eq(comments.participantId, participantId)).all();

beforeAll(async () => {
  resetDatabase();
  camp = await campWithPeople();
  const made = register(camp.event.id, {
    status: "open",
    child: { firstName: "Mia", lastName: "Meer" },
    guardian: { firstName: "Greta", lastName: "Meer", mobilePhone: "+49 171 5550101", phone: "0431 123456" },
    answers: { specialNeeds: "Nussallergie", tshirtSize: "S", allowedToSwim: false },
  });
  registrationId = made.registration.id;
  participantId = made.child.id;
  const enrolment = db
    .insert(enrolments)
    .values({ eventId: camp.event.id, userId: made.userId, submissionKey: "k-1", reference: "LF-1-0001", paymentMethod: "transfer" })
    .returning()
    .get();
  db.update(registrations).set({ enrolmentId: enrolment.id }).where(eq(registrations.id, registrationId)).run();
  db.insert(registrationHistory).values({ registrationId, actorId: camp.people.lead.id, action: "payment_confirmed", reason: "Überweisung eingegangen" }).run();
  // The same child at another event: its comments belong there.
  const other = createEvent({ title: "Herbstlager" });
  otherEventRegistration = register(other.id, { status: "open", userId: made.userId }).registration.id;
  db.insert(comments).values({ participantId, eventId: other.id, authorId: camp.people.admin.id, text: "Gehört zum Herbstlager" }).run();
});

describe("who sees a registration's detail", () => {
  it.each([
    ["admin", { decideRegistrations: true, confirmPayments: true, viewSepa: true, comment: true }],
    ["lead", { decideRegistrations: true, confirmPayments: true, viewSepa: true, comment: true }],
    ["team", { decideRegistrations: false, confirmPayments: false, viewSepa: false, comment: true }],
  ] as const)("%s sees it", async (person, may) => {
    const response = await open(person);
    expect(response.status).toBe(200);
    expect((await body<Detail>(response)).may).toEqual(may);
  });

  it.each(["pending", "declined", "parent"] as const)("%s gets 404", async (person) => {
    expect((await open(person)).status).toBe(404);
  });

  it("a visitor is sent to the sign-in", async () => {
    const response = await open(null);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("an unknown id, a malformed one and a registration of an event the lead does not lead are 404", async () => {
    for (const id of ["999999", "abc", "0"]) expect((await open("lead", id)).status).toBe(404);
    expect((await open("lead", otherEventRegistration)).status).toBe(404);
    expect((await open("admin", otherEventRegistration)).status).toBe(200);
  });
});

describe("what it shows", () => {
  it("guardian phones, the registration's own answers, the transfer reference and the history with who and why", async () => {
    const data = await body<Detail>(await open("team"));
    expect(data.participant).toMatchObject({ firstName: "Mia", lastName: "Meer" });
    expect(data.guardian).toMatchObject({ mobilePhone: "+49 171 5550101", phone: "0431 123456" });
    expect(data.registration).toMatchObject({ tshirtSize: "S", specialNeeds: "Nussallergie", allowedToSwim: false, paymentMethod: "transfer" });
    expect(data.reference).toBe("LF-1-0001");
    expect(data.history).toEqual([expect.objectContaining({ action: "payment_confirmed", reason: "Überweisung eingegangen", actor: "Lead Beispiel" })]);
  });

  // Leaders' review: "Zurück" led to page 1 of the whole list, whatever filter, search and page the
  // detail was opened from.
  it("'Zurück' leads to the list as it was opened from, its filter, search and page checked as the list's own", async () => {
    const back = async (liste: string) => (await body<{ backSearch: string }>(await open("lead", registrationId, `?liste=${encodeURIComponent(liste)}`))).backSearch;
    expect(await back("filter=offen&suche=Mia Meer&seite=2")).toBe("?filter=offen&suche=Mia+Meer&seite=2");
    expect(await back("")).toBe("");
    // Anything else is the list's default, as the list itself reads it.
    expect(await back("filter=<script>&seite=-3&x=1")).toBe("");
    expect((await body<{ backSearch: string }>(await open("lead"))).backSearch).toBe("");
  });

  it("only this event's comments", async () => {
    const data = await body<Detail>(await open("lead"));
    expect(data.comments.map((c) => c.text)).not.toContain("Gehört zum Herbstlager");
  });
});

describe("comments", () => {
  it.each(["", " ", " x "])("%j is refused with the spec's message and nothing is written", async (text) => {
    const response = await send("lead", { intent: "comment-add", text });
    expect(response.status).toBe(400);
    const reply = await body<{ comment: { errors: string[] } }>(response);
    expect(reply.comment.errors).toEqual(["Bitte geben sie ein vollständiges Kommentar an"]);
    expect(commentRows().filter((c) => c.eventId === camp.event.id)).toEqual([]);
  });

  it("the lead and the team write comments; each edits only their own", async () => {
    const added = await send("lead", { intent: "comment-add", text: "  Braucht abends Medikamente  " });
    expect(added.status).toBe(302);
    expect(await send("team", { intent: "comment-add", text: "Schläft im Zelt 3" })).toHaveProperty("status", 302);
    const data = await body<Detail>(await open("lead"));
    expect(data.comments.map((c) => [c.text, c.author, c.mine])).toEqual([
      ["Braucht abends Medikamente", "Lead Beispiel", true],
      ["Schläft im Zelt 3", "Team Beispiel", false],
    ]);
    const [leads, teams] = data.comments;

    // Editing: the own comment changes, someone else's does not (checked by the server).
    const edited = await send("lead", { intent: "comment-edit", commentId: String(leads.id), text: "Braucht morgens und abends Medikamente" });
    expect(edited.status).toBe(302);
    const refused = await send("lead", { intent: "comment-edit", commentId: String(teams.id), text: "Überschrieben" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe("Du kannst nur deine eigenen Kommentare bearbeiten.");
    const tooShort = await send("lead", { intent: "comment-edit", commentId: String(leads.id), text: "x" });
    expect(tooShort.status).toBe(400);
    expect(db.select().from(comments).where(eq(comments.id, teams.id)).get()!.text).toBe("Schläft im Zelt 3");
    expect(db.select().from(comments).where(eq(comments.id, leads.id)).get()!.text).toBe("Braucht morgens und abends Medikamente");
  });

  it("a comment sent twice (a double tap, a resent form) is written once; the page's next form has a new key", async () => {
    const page = await body<Detail & { commentKey: string }>(await open("team"));
    expect(page.commentKey).toMatch(/^[\w-]{16,64}$/);
    const before = commentRows().length;
    const form = { intent: "comment-add", text: "Hat Heimweh", submissionKey: page.commentKey };
    const [first, second] = await Promise.all([send("team", form), send("team", form)]);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(commentRows().filter((c) => c.text === "Hat Heimweh")).toHaveLength(1);
    expect(commentRows()).toHaveLength(before + 1);
    // The key is the sender's own: the lead's form with the same key still writes.
    expect((await send("lead", { ...form, text: "Ruft abends zu Hause an" })).status).toBe(302);
    expect(commentRows()).toHaveLength(before + 2);
    expect((await body<{ commentKey: string }>(await open("team"))).commentKey).not.toBe(page.commentKey);
    db.delete(comments).where(eq(comments.text, "Hat Heimweh")).run();
    db.delete(comments).where(eq(comments.text, "Ruft abends zu Hause an")).run();
  });

  it("?bearbeiten= opens only one's own comment for editing", async () => {
    const [leads, teams] = (await body<Detail>(await open("lead"))).comments;
    expect((await body<Detail>(await open("lead", registrationId, `?bearbeiten=${leads.id}`))).editingId).toBe(leads.id);
    expect((await body<Detail>(await open("lead", registrationId, `?bearbeiten=${teams.id}`))).editingId).toBeNull();
  });

  it.each(["pending", "declined", "parent"] as const)("%s cannot write one (404, nothing written)", async (person) => {
    const before = commentRows().length;
    expect((await send(person, { intent: "comment-add", text: "Ich war hier" })).status).toBe(404);
    expect(commentRows()).toHaveLength(before);
  });

  it("the team cannot decide from the detail page", async () => {
    expect((await send("team", { intent: "accept", registrationId: String(registrationId) })).status).toBe(404);
    expect(db.select().from(registrations).where(eq(registrations.id, registrationId)).get()!.applicationStatus).toBe("open");
  });

  it("the lead accepts from the detail page and comes back to it", async () => {
    const response = await send("lead", { intent: "accept", registrationId: String(registrationId) });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(url(registrationId));
    const data = await body<Detail>(await open("lead"));
    expect(data.history.map((h) => h.action)).toContain("accepted");
  });

  it("a form sent from a detail opened from a filtered list comes back to it with the list kept", async () => {
    const liste = `?liste=${encodeURIComponent("filter=offen&suche=Mia")}`;
    const response = await send("lead", { intent: "comment-add", text: "Bringt Schwimmflügel mit." }, registrationId, liste);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`${url(registrationId)}?liste=filter%3Doffen%26suche%3DMia#comments-title`);
  });
});

describe("speed", () => {
  it("the detail asks the database the same number of times with 2 and with 30 comments and history entries", async () => {
    const statementsWith = async (n: number) => {
      const made = register(camp.event.id, { status: "open" });
      for (let i = 0; i < n; i++) {
        db.insert(comments).values({ participantId: made.child.id, eventId: camp.event.id, authorId: camp.people.lead.id, text: `Notiz ${i}` }).run();
        db.insert(registrationHistory).values({ registrationId: made.registration.id, actorId: camp.people.lead.id, action: "payment_confirmed" }).run();
      }
      const { result, statements } = await countStatements(() => open("lead", made.registration.id));
      expect((await body<Detail>(result)).comments).toHaveLength(n);
      return statements;
    };
    const few = await statementsWith(2);
    expect(await statementsWith(30)).toBe(few);
    expect(few).toBeGreaterThanOrEqual(4);
  });
});
