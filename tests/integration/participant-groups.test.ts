// Groups on the participant list (fresh-eyes review of issues 10 and 11): the list's own action
// sorts children into groups through the group handler (read once, the intent decides), with the
// group rules and the role table; the loader hands the event's groups to the select with a
// constant number of queries; a group name needs a visible character.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eventGroups, groupMembers, registrations } from "../../db/schema";
import { createGroup, renameGroup } from "~/models/group.server";
import { action, loader } from "~/routes/freizeit.participants.$id";
import { db } from "~/services/db.server";
import { takeFlash } from "~/services/flash.server";
import { resetDatabase } from "../support/fixtures";
import { addGroup, register } from "../support/lists-fixtures";
import { body, get, post, run } from "../support/remix";
import { campWithPeople, type Person } from "../support/review-fixtures";

let camp: Awaited<ReturnType<typeof campWithPeople>>;
const ids: Record<string, number> = {};

function send(person: Person, fields: Record<string, string>, search = "") {
  const url = `/freizeit/participants/${camp.event.id}${search}`;
  return run(action, post(url, fields, { cookie: camp.people[person].cookie, params: { id: String(camp.event.id) } }));
}

/** The flash message a redirect carries (its Set-Cookie read back as the next request would). */
async function readFlash(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("lf_flash="));
  if (!cookie) return null;
  return (await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } })))?.flash ?? null;
}

function groupOf(registrationId: number) {
  return db.select({ groupId: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.registrationId, registrationId)).get()?.groupId ?? null;
}

beforeAll(async () => {
  resetDatabase();
  camp = await campWithPeople({ capacity: 3 });
  const e = camp.event.id;
  ids.open = register(e, { status: "open", child: { firstName: "Olga", lastName: "Offen" } }).registration.id;
  ids.accepted = register(e, { status: "accepted", child: { firstName: "Bea", lastName: "Bestätigt" } }).registration.id;
  ids.waiting = register(e, { status: "open", waitingListPosition: 1, child: { firstName: "Wim", lastName: "Warten" } }).registration.id;
  ids.foxes = addGroup(e, "Füchse").id;
  ids.owls = addGroup(e, "Eulen").id;
});

describe("sorting children into groups on the participant list", () => {
  it("a lead person puts an open (with a place) and an accepted child into groups; back to the list with the toast", async () => {
    const open = await send("lead", { intent: "assign-group", registrationId: String(ids.open), groupId: String(ids.foxes) }, "?filter=offen");
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe(`/freizeit/participants/${camp.event.id}?filter=offen`);
    // Named (leaders' review): without JavaScript each row saves on its own, so the answer says whose.
    expect((await readFlash(open))?.message).toBe('Die Zuordnung von Olga Offen zur Gruppe "Füchse" wurde gespeichert.');
    expect(groupOf(ids.open)).toBe(ids.foxes);
    const accepted = await send("lead", { intent: "assign-group", registrationId: String(ids.accepted), groupId: String(ids.owls) });
    expect(accepted.status).toBe(302);
    expect(groupOf(ids.accepted)).toBe(ids.owls);
    const none = await send("lead", { intent: "assign-group", registrationId: String(ids.accepted), groupId: "" });
    expect((await readFlash(none))?.message).toBe("Bea Bestätigt ist jetzt keiner Gruppe zugeordnet.");
    expect(groupOf(ids.accepted)).toBe(null);
    await send("lead", { intent: "assign-group", registrationId: String(ids.accepted), groupId: String(ids.owls) });
  });

  it("the camp team may sort in too (assignGroups), but not create groups (manageGroups: 404)", async () => {
    const moved = await send("team", { intent: "assign-group", registrationId: String(ids.accepted), groupId: String(ids.foxes) });
    expect(moved.status).toBe(302);
    expect(groupOf(ids.accepted)).toBe(ids.foxes);
    const created = await send("team", { intent: "create-group", name: "Dachse" });
    expect(created.status).toBe(404);
    expect(db.select().from(eventGroups).where(and(eq(eventGroups.eventId, camp.event.id), eq(eventGroups.name, "Dachse"))).get()).toBeUndefined();
  });

  it("a waiting child cannot be put into a group (the group rules): a 409 with the message for its field, nothing written", async () => {
    // The searchable field sends one row (JavaScript): a refusal is answered for that field, not
    // with a redirect and a flash at the top of the page (leaders' review).
    const refused = await send("lead", { intent: "assign-group", registrationId: String(ids.waiting), groupId: String(ids.foxes) });
    expect(refused.status).toBe(409);
    expect(await body(refused)).toEqual({
      groupAssign: {
        target: { registrationId: ids.waiting },
        message: "Nur offene oder angenommene Anmeldungen (nicht auf der Warteliste) können einer Gruppe zugeordnet werden.",
      },
    });
    expect(groupOf(ids.waiting)).toBeNull();
    // A group gone meanwhile: 404, said at the field too.
    const gone = await send("lead", { intent: "assign-group", registrationId: String(ids.open), groupId: "999999" });
    expect(gone.status).toBe(404);
    expect(await body(gone)).toMatchObject({ groupAssign: { target: { registrationId: ids.open }, message: "Diese Gruppe gibt es nicht mehr. Bitte lade die Seite neu." } });
  });

  it.each(["pending", "declined", "parent"] as const)("%s cannot sort anyone in", async (person) => {
    const answer = await send(person, { intent: "assign-group", registrationId: String(ids.open), groupId: String(ids.owls) });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/");
    expect(groupOf(ids.open)).toBe(ids.foxes);
  });

  it("decisions still go to the decision handler on the same action", async () => {
    const accepted = await send("lead", { intent: "accept", registrationId: String(ids.open) });
    expect(accepted.status).toBe(302);
    expect(db.select().from(registrations).where(eq(registrations.id, ids.open)).get()!.applicationStatus).toBe("accepted");
  });

  it("a child that loses its place (cancelled, rejected) leaves its group, so no list or camp sheet shows it there", async () => {
    const e = camp.event.id;
    const placed = register(e, { status: "open", child: { firstName: "Rita", lastName: "Raus" } }).registration.id;
    db.insert(groupMembers).values({ eventId: e, groupId: ids.owls, registrationId: placed }).run();
    const rejected = await send("lead", { intent: "reject", registrationId: String(placed), reason: "Zu jung" });
    expect(rejected.status).toBe(302);
    expect(db.select().from(registrations).where(eq(registrations.id, placed)).get()!.applicationStatus).toBe("rejected");
    expect(groupOf(placed)).toBeNull();

    expect(groupOf(ids.accepted)).toBe(ids.foxes);
    const cancelled = await send("lead", { intent: "cancel", registrationId: String(ids.accepted), reason: "Krank" });
    expect(cancelled.status).toBe(302);
    expect(groupOf(ids.accepted)).toBeNull();
    expect(groupOf(ids.open)).toBe(ids.foxes);
  });

  it("the list's one form of group selects is read with a row per field beyond 1,000 (an event without a capacity)", async () => {
    const rows = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`group-r${900000 + i}-from-0`, String(ids.foxes)]));
    const answer = await send("lead", { intent: "assign-groups", ...rows });
    expect(answer.status).toBe(302);
    expect((await readFlash(answer))?.message).toBe("Nicht gespeichert: 1500 Einträge stehen nicht mehr auf der Liste.");
    const tooMany = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`group-r${900000 + i}-from-0`, ""]));
    expect((await send("lead", { intent: "assign-groups", ...tooMany })).status).toBe(413);
  });

  it("the loader gives the select the event's groups and each row its group", async () => {
    const response = await run(loader, get(`/freizeit/participants/${camp.event.id}`, { cookie: camp.people.lead.cookie, params: { id: String(camp.event.id) } }));
    const data = await body<{ groups: { id: number; name: string }[]; table: { id: number; groupId: number | null }[] }>(response);
    expect(data.groups.map((g) => g.name)).toEqual(["Eulen", "Füchse"]);
    expect(data.table.find((r) => r.id === ids.open)?.groupId).toBe(ids.foxes);
  });
});

describe("a group name needs a visible character", () => {
  it.each([
    ["zero-width space", "\u200B"],
    ["zero-width characters and spaces", " \u200B\u200C\u200D\u2060\uFEFF "],
    ["Hangul filler", "\u3164"],
    ["braille blank and no-break space", "\u2800\u00A0"],
    ["soft hyphen", "\u00AD"],
  ])("%s: 'Upps' and nothing stored", (_, name) => {
    const before = db.select().from(eventGroups).all().length;
    const outcome = createGroup(camp.event.id, name);
    expect(outcome).toMatchObject({ ok: false, status: 400, title: "Upps", message: "Du musst einen Gruppennamen angeben..." });
    expect(renameGroup(camp.event.id, ids.owls, name)).toMatchObject({ ok: false, title: "Upps" });
    expect(db.select().from(eventGroups).all().length).toBe(before);
  });

  it("through the list's form too", async () => {
    const answer = await send("lead", { intent: "create-group", name: "\u200B\u200B" });
    expect(answer.status).toBe(400);
    expect(await body(answer)).toMatchObject({ groupName: { title: "Upps", message: "Du musst einen Gruppennamen angeben..." } });
  });

  it("invisible characters at the ends are dropped; a visible name stays as it is", () => {
    const outcome = createGroup(camp.event.id, "\u200BDachse\u200B");
    expect(outcome).toMatchObject({ ok: true, groupName: "Dachse" });
    expect(createGroup(camp.event.id, "Dachse\u200B")).toMatchObject({ ok: false, status: 409 });
  });
});
