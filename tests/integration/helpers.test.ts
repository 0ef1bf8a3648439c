// The helper list and its decisions (spec part 2 §2.6, §4; part 1 §4; issue 11 items 1, 2, 6):
// every transition and every refused one, the sort order, the check warnings on the list, and a
// constant number of queries for 100 helpers.
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, eventHelpers, users } from "../../db/schema";
import { action, loader } from "~/routes/freizeit.helper.$id";
import { assignToGroup, createGroup } from "~/models/group.server";
import { db } from "~/services/db.server";
import { eventAccess } from "~/services/permissions.server";
import { getEventPage } from "~/models/event.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent, daysFromToday } from "../support/events";
import { countStatements } from "../support/review-fixtures";
import { addHelperEntry } from "../support/helper-camp";
import { body, cookieFrom, get, outbox, post, run } from "../support/remix";
import { takeFlash } from "~/services/flash.server";

type Person = Awaited<ReturnType<typeof createUser>>;
let admin: Person, lead: Person, team: Person, parent: Person;
let eventId: number;

beforeEach(async () => {
  resetDatabase();
  admin = await createUser({ role: "admin" });
  lead = await createUser();
  team = await createUser();
  parent = await createUser();
  eventId = createEvent({ ownerIds: [lead.id], title: "Sommerlager", dateFrom: daysFromToday(40), dateTo: daysFromToday(47) }).id;
  addHelperEntry(eventId, team.id, "accepted");
});

function statusOf(userId: number) {
  return db.select().from(eventHelpers).where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.userId, userId))).get()?.status;
}

async function decide(actor: Person, intent: string, helperUserId: number) {
  return run(action, post(`/freizeit/helper/${eventId}`, { intent, helperUserId: String(helperUserId) }, { cookie: await sessionCookieFor(actor.id), params: { id: String(eventId) } }));
}

async function list(actor: Person) {
  return run(loader, get(`/freizeit/helper/${eventId}`, { cookie: await sessionCookieFor(actor.id), params: { id: String(eventId) } }));
}

type ListData = { active: { userId: number; status: string; warnings: { kind: string }[]; groupName: string | null }[]; declined: { userId: number }[] };

describe("who sees the helper list", () => {
  it.each([
    ["admin", () => admin, 200],
    ["lead person", () => lead, 200],
    ["accepted helper", () => team, 200],
    ["parent", () => parent, 302],
  ])("%s", async (_name, who, status) => {
    const response = await list(who());
    expect(response.status).toBe(status);
    if (status === 302) expect(response.headers.get("Location")).toBe("/");
  });

  it.each(["pending", "declined"] as const)("a %s helper is sent home", async (status) => {
    const applicant = await createUser();
    addHelperEntry(eventId, applicant.id, status);
    const response = await list(applicant);
    expect(response.headers.get("Location")).toBe("/");
  });

  it("signed out goes to the login", async () => {
    const response = await run(loader, get(`/freizeit/helper/${eventId}`, { params: { id: String(eventId) } }));
    expect(response.headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("helper decisions", () => {
  it("accept: pending → accepted, audit, mail, staff rights at once, 'Sie sind Helfer*in'", async () => {
    const applicant = await createUser({ firstName: "Jana" });
    addHelperEntry(eventId, applicant.id, "pending");
    expect(eventAccess(eventId, { ...applicant })?.role).toBe("applicant");
    const response = await decide(lead, "accept", applicant.id);
    expect(response.status).toBe(302);
    expect(statusOf(applicant.id)).toBe("accepted");
    expect(eventAccess(eventId, { ...applicant })?.may.viewLists).toBe(true);
    expect(getEventPage(eventId, { ...applicant })?.myHelperStatus).toBe("accepted");
    const audit = db.select().from(auditLog).where(eq(auditLog.entityId, applicant.id)).all();
    expect(audit.map((a) => a.action)).toEqual(["helper.accepted"]);
    expect(audit[0].actorId).toBe(lead.id);
    const mail = outbox()[0];
    expect(mail.to).toEqual([applicant.email]);
    expect(mail.subject).toBe("Du bist Helfer*in bei „Sommerlager“");
    expect(mail.text).toContain("Hallo Jana");
  });

  it("decline: pending → declined ('Kein*e Helfer*in'), then 'Ablehnung stornieren' → pending", async () => {
    const applicant = await createUser();
    addHelperEntry(eventId, applicant.id, "pending");
    await decide(admin, "decline", applicant.id);
    expect(statusOf(applicant.id)).toBe("declined");
    expect(getEventPage(eventId, { ...applicant })?.myHelperStatus).toBe("declined");
    expect(outbox()[0].subject).toBe("Deine Bewerbung als Helfer*in für „Sommerlager“ wurde nicht angenommen"); // the outcome in the subject (mail review)
    const data = await body<ListData>(await list(lead));
    expect(data.declined.map((h) => h.userId)).toEqual([applicant.id]);
    await decide(lead, "revoke-decline", applicant.id);
    expect(statusOf(applicant.id)).toBe("pending");
    expect(outbox()[0].subject).toBe("Deine Bewerbung als Helfer*in für „Sommerlager“ ist wieder offen");
    const actions = db.select().from(auditLog).where(eq(auditLog.entityId, applicant.id)).all().map((a) => a.action);
    expect(actions).toEqual(["helper.declined", "helper.reset"]);
  });

  it("'Anmeldung stornieren': accepted → pending, loses the lists and the group", async () => {
    const group = createGroup(eventId, "Bären");
    if (!group.ok || !group.groupId) throw new Error("group");
    expect(assignToGroup(eventId, { helperUserId: team.id }, group.groupId, lead).ok).toBe(true);
    await decide(lead, "cancel", team.id);
    expect(statusOf(team.id)).toBe("pending");
    expect(eventAccess(eventId, { ...team })?.may.viewLists).toBe(false);
    expect((await list(team)).headers.get("Location")).toBe("/");
    const data = await body<ListData>(await list(lead));
    expect(data.active.find((h) => h.userId === team.id)?.groupName).toBeNull();
    expect(outbox()[0].subject).toBe("Deine Anmeldung als Helfer*in für „Sommerlager“ wurde storniert");
  });

  // A double click (an attacker's probe: three at once gave one success and two 409s, and the
  // page showed the last): the state asked for holds already, so it is answered as done, as a
  // repeated registration decision is; no second mail, no second protocol entry.
  it.each([
    ["accept", "accepted"],
    ["decline", "declined"],
  ] as const)("answers %s of a %s helper as done, changing nothing more", async (intent, status) => {
    const helper = await createUser();
    addHelperEntry(eventId, helper.id, status);
    const before = outbox().length;
    const response = await decide(lead, intent, helper.id);
    expect(response.status).toBe(302);
    const flash = await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(response, "lf_flash")! } }));
    expect(flash?.flash.kind).toBe("success");
    expect(statusOf(helper.id)).toBe(status);
    expect(outbox().length).toBe(before);
    expect(db.select().from(auditLog).all()).toHaveLength(0);
  });

  it.each([
    ["accept", "declined"],
    ["decline", "accepted"],
    // 'pending' is also a fresh application's state: an undo of what never happened is refused.
    ["cancel", "pending"],
    ["cancel", "declined"],
    ["revoke-decline", "pending"],
    ["revoke-decline", "accepted"],
  ] as const)("refuses %s of a %s helper (409, nothing changes)", async (intent, status) => {
    const helper = await createUser();
    addHelperEntry(eventId, helper.id, status);
    const before = outbox().length;
    const response = await decide(lead, intent, helper.id);
    expect(response.status).toBe(409);
    expect((await body<{ error: { title: string } }>(response)).error.title).toBe("Da hat etwas nicht geklappt");
    expect(statusOf(helper.id)).toBe(status);
    expect(outbox().length).toBe(before);
    expect(db.select().from(auditLog).all()).toHaveLength(0);
  });

  it("refuses an accepted helper (team) deciding: 404, nothing changes", async () => {
    const applicant = await createUser();
    addHelperEntry(eventId, applicant.id, "pending");
    const response = await decide(team, "accept", applicant.id);
    expect(response.status).toBe(404);
    expect(statusOf(applicant.id)).toBe("pending");
  });

  it("refuses a parent and a pending applicant deciding: sent home", async () => {
    const applicant = await createUser();
    addHelperEntry(eventId, applicant.id, "pending");
    for (const who of [parent, applicant]) {
      const response = await decide(who, "accept", applicant.id);
      expect(response.headers.get("Location")).toBe("/");
    }
    expect(statusOf(applicant.id)).toBe("pending");
  });

  it("a helper of another event is not found; a bad id or intent is 400", async () => {
    const other = createEvent({ ownerIds: [lead.id] }).id;
    const stranger = await createUser();
    addHelperEntry(other, stranger.id, "pending");
    expect((await decide(lead, "accept", stranger.id)).status).toBe(404);
    expect(statusOf(stranger.id)).toBeUndefined();
    expect((await decide(lead, "accept", 0)).status).toBe(400);
    expect((await decide(lead, "promote", stranger.id)).status).toBe(400);
  });
});

describe("the list", () => {
  it("sorts accepted first, then group name (grouped first), surname, first name; declined apart", async () => {
    const make = async (firstName: string, lastName: string, status: "pending" | "accepted" | "declined") => {
      const user = await createUser({ firstName, lastName });
      addHelperEntry(eventId, user.id, status);
      return user;
    };
    db.delete(eventHelpers).where(eq(eventHelpers.userId, team.id)).run();
    const zoe = await make("Zoe", "Adler", "accepted");
    const anna = await make("Anna", "Zander", "accepted");
    const ben = await make("Ben", "Zander", "accepted");
    const carl = await make("Carl", "Berg", "accepted");
    const pendingA = await make("Paul", "Aal", "pending");
    const declined = await make("Dora", "Dach", "declined");
    const b = createGroup(eventId, "Bären");
    const a = createGroup(eventId, "Adler");
    if (!a.ok || !b.ok) throw new Error("groups");
    assignToGroup(eventId, { helperUserId: carl.id }, a.groupId, lead);
    assignToGroup(eventId, { helperUserId: zoe.id }, b.groupId, lead);
    const data = await body<ListData>(await list(lead));
    expect(data.active.map((h) => h.userId)).toEqual([carl.id, zoe.id, anna.id, ben.id, pendingA.id]);
    expect(data.declined.map((h) => h.userId)).toEqual([declined.id]);
  });

  it("shows check warnings for accepted helpers at their boundaries", async () => {
    const lastDay = daysFromToday(47);
    const fiveYearsBefore = `${Number(lastDay.slice(0, 4)) - 5}${lastDay.slice(4)}`;
    db.update(users).set({ policeCertificateCheckedOn: fiveYearsBefore, juleicaExpiresOn: lastDay }).where(eq(users.id, team.id)).run();
    const older = await createUser();
    addHelperEntry(eventId, older.id, "accepted");
    const dayBefore = new Date(`${fiveYearsBefore}T12:00:00Z`);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    db.update(users)
      .set({ policeCertificateCheckedOn: dayBefore.toISOString().slice(0, 10), juleicaExpiresOn: daysFromToday(46) })
      .where(eq(users.id, older.id))
      .run();
    const pending = await createUser();
    addHelperEntry(eventId, pending.id, "pending");
    const data = await body<ListData>(await list(lead));
    const kinds = (id: number) => data.active.find((h) => h.userId === id)?.warnings.map((w) => w.kind);
    expect(kinds(team.id)).toEqual([]);
    expect(kinds(older.id)).toEqual(["certificate-old", "juleica-expires"]);
    expect(kinds(pending.id)).toEqual([]);
  });

  it("needs the same number of queries for 3 and for 100 helpers", async () => {
    const count = async () => {
      const { result, statements } = await countStatements(() => list(lead));
      expect(result.status).toBe(200);
      return statements;
    };
    const group = createGroup(eventId, "Alle");
    for (let i = 0; i < 2; i++) {
      const u = await createUser();
      addHelperEntry(eventId, u.id, "accepted");
    }
    const few = await count();
    for (let i = 0; i < 97; i++) {
      const u = db.insert(users).values({ email: `h${i}-${Date.now()}@example.org`, firstName: "H", lastName: `H${i}`, passwordHash: "x" }).returning().get();
      addHelperEntry(eventId, u.id, i % 3 === 0 ? "pending" : "accepted");
      if (group.ok && i % 3 === 1) assignToGroup(eventId, { helperUserId: u.id }, group.groupId, lead);
    }
    const many = await count();
    expect(few).toBeGreaterThan(2);
    expect(many).toBe(few);
  });
});

describe("the step before a decline or a cancellation", () => {
  async function stepFor(actor: Person, query: string) {
    const response = await run(loader, get(`/freizeit/helper/${eventId}?${query}`, { cookie: await sessionCookieFor(actor.id), params: { id: String(eventId) } }));
    return (await body<{ step: unknown }>(response)).step;
  }

  it("is shown to those who decide, for a decision the helper's state allows, and to no one else", async () => {
    const applicant = await createUser({ firstName: "Paula", lastName: "Probe" });
    addHelperEntry(eventId, applicant.id, "pending");
    expect(await stepFor(lead, `entscheiden=decline&helfer=${applicant.id}`)).toEqual({ intent: "decline", userId: applicant.id, name: "Paula Probe" });
    expect(await stepFor(admin, `entscheiden=cancel&helfer=${team.id}`)).toMatchObject({ intent: "cancel", userId: team.id });
    // The camp team decides nothing; a pending helper cannot be cancelled, an accepted one not declined.
    expect(await stepFor(team, `entscheiden=decline&helfer=${applicant.id}`)).toBeNull();
    expect(await stepFor(lead, `entscheiden=cancel&helfer=${applicant.id}`)).toBeNull();
    expect(await stepFor(lead, `entscheiden=decline&helfer=${team.id}`)).toBeNull();
    expect(await stepFor(lead, `entscheiden=accept&helfer=${applicant.id}`)).toBeNull();
    expect(await stepFor(lead, `entscheiden=decline&helfer=${parent.id}`)).toBeNull();
  });
});

describe("helper detail", () => {
  async function detail(actor: Person, userId: number | string) {
    const { loader: detailLoader } = await import("~/routes/freizeit.helper.$freizeitId.helper-details.$userId");
    return run(detailLoader, get(`/freizeit/helper/${eventId}/helper-details/${userId}`, { cookie: await sessionCookieFor(actor.id), params: { freizeitId: String(eventId), userId: String(userId) } }));
  }

  it("staff see name, e-mail, group and checks; everyone else gets 404", async () => {
    db.update(users).set({ phone: "0151 1", juleicaNumber: "J-1", juleicaExpiresOn: "2099-01-01" }).where(eq(users.id, team.id)).run();
    for (const who of [admin, lead, team]) {
      const response = await detail(who, team.id);
      expect(response.status).toBe(200);
      const data = await body<{ helper: { email: string; phone: string; warnings: { kind: string }[] } }>(response);
      expect(data.helper).toMatchObject({ email: team.email, phone: "0151 1" });
      expect(data.helper.warnings.map((w) => w.kind)).toEqual(["certificate-missing"]);
    }
    const pending = await createUser();
    addHelperEntry(eventId, pending.id, "pending");
    expect((await detail(parent, team.id)).status).toBe(404);
    expect((await detail(pending, team.id)).status).toBe(404);
  });

  it("someone who is no helper of the event: 404 'Nutzer*in nicht gefunden'", async () => {
    const response = await detail(lead, parent.id);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Nutzer*in nicht gefunden");
  });

  it("says in German what it could not load: the event, or the address itself (spec §2.7, DECISIONS.md)", async () => {
    const { loader: detailLoader } = await import("~/routes/freizeit.helper.$freizeitId.helper-details.$userId");
    const at = async (actor: Person, freizeitId: string, userId: string) => {
      const response = await run(detailLoader, get(`/freizeit/helper/${freizeitId}/helper-details/${userId}`, { cookie: await sessionCookieFor(actor.id), params: { freizeitId, userId } }));
      return { status: response.status, text: await response.text() };
    };
    const notLoaded = { status: 404, text: "Die Veranstaltung konnte nicht geladen werden" };
    expect(await at(lead, "99999", String(team.id))).toEqual(notLoaded);
    // Someone who may not see the event learns no more than about one that does not exist.
    expect(await at(parent, String(eventId), String(team.id))).toEqual(notLoaded);
    const invalid = { status: 404, text: "Ungültige Angaben" };
    expect(await at(lead, String(eventId), "x")).toEqual(invalid);
    expect(await at(lead, "abc", String(team.id))).toEqual(invalid);
  });

  async function recordChecks(actor: Person, userId: number, values: Record<string, string>) {
    const { action: detailAction } = await import("~/routes/freizeit.helper.$freizeitId.helper-details.$userId");
    const path = `/freizeit/helper/${eventId}/helper-details/${userId}`;
    return run(detailAction, post(path, values, { cookie: await sessionCookieFor(actor.id), params: { freizeitId: String(eventId), userId: String(userId) } }));
  }

  it("lead persons and admins record a helper's checks there (the warning is not a dead end); the team and others may not", async () => {
    const checks = { policeCertificateCheckedOn: "2026-10-01", policeCertificateCheckedBy: "Lena Leitung", juleicaNumber: "", juleicaExpiresOn: "", phone: "0151 2" };
    const saved = await recordChecks(lead, team.id, checks);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/freizeit/helper/${eventId}/helper-details/${team.id}`);
    expect(db.select().from(users).where(eq(users.id, team.id)).get()).toMatchObject({ policeCertificateCheckedOn: "2026-10-01", policeCertificateCheckedBy: "Lena Leitung", phone: "0151 2" });
    const shown = await body<{ helper: { warnings: unknown[] }; mayRecordChecks: boolean }>(await detail(lead, team.id));
    expect(shown.mayRecordChecks).toBe(true);
    expect(shown.helper.warnings).toEqual([]);
    expect((await body<{ mayRecordChecks: boolean }>(await detail(team, team.id))).mayRecordChecks).toBe(false);

    // Refused values: the messages next to their fields, nothing saved.
    const refused = await recordChecks(admin, team.id, { ...checks, policeCertificateCheckedOn: "2099-01-01" });
    expect(refused.status).toBe(400);
    expect((await body<{ helperChecks: { errors: Record<string, string> } }>(refused)).helperChecks.errors.policeCertificateCheckedOn).toBe(
      "Das Datum der Einsicht darf nicht in der Zukunft liegen.",
    );
    // The camp team, a parent and an applicant: not found, nothing changed.
    const pending = await createUser();
    addHelperEntry(eventId, pending.id, "pending");
    for (const who of [team, parent, pending]) expect((await recordChecks(who, team.id, { ...checks, policeCertificateCheckedBy: "X" })).status).toBe(404);
    // Only for accepted helpers of this event.
    expect((await recordChecks(lead, pending.id, checks)).status).toBe(404);
    expect((await recordChecks(lead, parent.id, checks)).status).toBe(404);
    expect(db.select().from(users).where(eq(users.id, team.id)).get()!.policeCertificateCheckedBy).toBe("Lena Leitung");
  });
});
