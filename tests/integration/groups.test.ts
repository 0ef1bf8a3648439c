// Group rules (spec part 2 §4, §5, §8; issue 11 item 4): create, rename, delete (members become
// ungrouped), one group per person per event, no group of another event, no waiting, rejected or
// cancelled registration, no pending or declined helper; the form handler's permission check.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { groupMembers } from "../../db/schema";
import { assignToGroup, createGroup, deleteGroup, listEventGroups, renameGroup } from "~/models/group.server";
import { db } from "~/services/db.server";
import { handleGroupForm } from "~/services/group-form.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";
import { addHelperEntry as addHelper, createRegistration } from "../support/helper-camp";
import { newGroup as makeGroup } from "../support/groups";
import { body, cookieFrom, get, post, run } from "../support/remix";
import { takeFlash } from "~/services/flash.server";
import { loader as helperListLoader } from "~/routes/freizeit.helper.$id";

/** Who is in which group of the event, as the database holds it: registration id → group id, helper id → group id. */
function groupAssignments(eventId: number) {
  const rows = db
    .select({ groupId: groupMembers.groupId, registrationId: groupMembers.registrationId, helperUserId: groupMembers.helperUserId })
    .from(groupMembers)
    .where(eq(groupMembers.eventId, eventId))
    .all();
  const byRegistration = new Map<number, number>();
  const byHelper = new Map<number, number>();
  for (const row of rows) {
    if (row.registrationId !== null) byRegistration.set(row.registrationId, row.groupId);
    if (row.helperUserId !== null) byHelper.set(row.helperUserId, row.groupId);
  }
  return { byRegistration, byHelper };
}

let lead: { id: number };
let parent: { id: number };
let eventId: number;
let otherEventId: number;

beforeAll(async () => {
  resetDatabase();
  lead = await createUser();
  parent = await createUser();
  eventId = createEvent({ ownerIds: [lead.id] }).id;
  otherEventId = createEvent({ ownerIds: [lead.id], title: "Andere" }).id;
});

function newGroup(name: string, event = eventId) {
  return makeGroup(event, name);
}

describe("groups", () => {
  it("creates with the spec's toast and refuses an empty name with 'Upps'", () => {
    const outcome = createGroup(eventId, "  Füchse ");
    expect(outcome).toMatchObject({ ok: true, title: "Erfolgreich", message: 'Du hast erfolgreich die Gruppe "Füchse" angelegt.' });
    expect(createGroup(eventId, "   ")).toMatchObject({ ok: false, title: "Upps", message: "Du musst einen Gruppennamen angeben..." });
    expect(createGroup(eventId, "Füchse")).toMatchObject({ ok: false, status: 409 });
    expect(listEventGroups(eventId).map((g) => g.name)).toContain("Füchse");
    // The lists' sheet for those without a group has this name (screens' review: two such sheets).
    for (const name of ["Ohne Gruppe", " ohne  gruppe "]) {
      expect(createGroup(eventId, name)).toMatchObject({ ok: false, status: 400, message: 'Der Name "Ohne Gruppe" steht in den Listen für alle, die keiner Gruppe zugeordnet sind. Bitte wähle einen anderen.' });
    }
    // The lists' choice for no group, and the group field's empty state, are "Keine Gruppe": a
    // group of that name looked like no group at all.
    for (const name of ["Keine Gruppe", "keine gruppe"]) {
      expect(createGroup(eventId, name)).toMatchObject({ ok: false, status: 400, message: 'Der Name "Keine Gruppe" steht in den Listen für alle, die keiner Gruppe zugeordnet sind. Bitte wähle einen anderen.' });
    }
    const [fuechse] = listEventGroups(eventId);
    expect(renameGroup(eventId, fuechse.id, "Keine Gruppe")).toMatchObject({ ok: false, status: 400 });
    // Nor with a zero-width character inside, which shows nothing (an attacker's probe).
    expect(createGroup(eventId, "Keine \u200cGruppe")).toMatchObject({ ok: false, status: 400 });
  });

  // An attacker's probe: "Wölfe" with ö as one character and as o with a combining mark look the
  // same, and were two groups, two entries in the group field and two sheets.
  it("refuses a name that only looks the same: combined letters, zero-width characters", () => {
    const event = createEvent({ ownerIds: [lead.id] }).id;
    expect(createGroup(event, "Wölfe")).toMatchObject({ ok: true });
    expect(createGroup(event, "Wo\u0308lfe")).toMatchObject({ ok: false, status: 409 });
    expect(createGroup(event, "Wö\u200dlfe")).toMatchObject({ ok: false, status: 409 });
    // Stored as one writes it: the combined form.
    expect(createGroup(event, "Ba\u0308ren")).toMatchObject({ ok: true, groupName: "Bären" });
  });

  // Leaders' review: "Wölfe" and "wölfe" were two groups; the group field, which matches names
  // without regard to case, then always chose the first, and the Gruppenliste had "wölfe 2".
  it("refuses a name that differs from another group's only in upper and lower case, also on renaming", () => {
    const wolves = newGroup("Wölfe");
    for (const name of ["wölfe", "WÖLFE", " wÖlfe "]) {
      expect(createGroup(eventId, name)).toMatchObject({ ok: false, status: 409, message: `Es gibt schon eine Gruppe "${name.trim()}" in dieser Veranstaltung.` });
    }
    const owls = newGroup("Käuzchen");
    expect(renameGroup(eventId, owls, "WÖLFE")).toMatchObject({ ok: false, status: 409 });
    // Its own name in other letters is a rename.
    expect(renameGroup(eventId, wolves, "WÖLFE")).toMatchObject({ ok: true });
  });

  it("renames, and refuses a group of another event", () => {
    const id = newGroup("Eulen");
    expect(renameGroup(eventId, id, "Uhus")).toMatchObject({ ok: true });
    expect(listEventGroups(eventId).find((g) => g.id === id)?.name).toBe("Uhus");
    expect(renameGroup(otherEventId, id, "X")).toMatchObject({ ok: false, status: 404, title: "Da hat etwas nicht geklappt" });
  });

  it("puts a person in one group per event; moving replaces the group", () => {
    const a = newGroup("A1");
    const b = newGroup("B1");
    const reg = createRegistration(eventId, parent.id);
    expect(assignToGroup(eventId, { registrationId: reg.id }, a, lead)).toMatchObject({ ok: true, groupId: a });
    expect(assignToGroup(eventId, { registrationId: reg.id }, b, lead)).toMatchObject({ ok: true, groupId: b });
    expect(groupAssignments(eventId).byRegistration.get(reg.id)).toBe(b);
    expect(assignToGroup(eventId, { registrationId: reg.id }, null, lead)).toMatchObject({ ok: true, groupId: null });
    expect(groupAssignments(eventId).byRegistration.has(reg.id)).toBe(false);
  });

  it("refuses another event's group and another event's registration", () => {
    const foreign = newGroup("Fremd", otherEventId);
    const reg = createRegistration(eventId, parent.id);
    expect(assignToGroup(eventId, { registrationId: reg.id }, foreign, lead)).toMatchObject({
      ok: false,
      status: 404,
      // To this event it is not there (said at the searchable field, which sends one row).
      message: "Diese Gruppe gibt es nicht mehr. Bitte lade die Seite neu.",
    });
    const own = newGroup("Eigen");
    expect(assignToGroup(otherEventId, { registrationId: reg.id }, own, lead)).toMatchObject({ ok: false, status: 404 });
    expect(groupAssignments(eventId).byRegistration.has(reg.id)).toBe(false);
  });

  it.each([
    ["waiting", { status: "open" as const, waiting: 1 }],
    ["rejected", { status: "rejected" as const }],
    ["cancelled", { status: "cancelled" as const }],
  ])("refuses a %s registration", (_name, options) => {
    const group = newGroup(`G-${_name}`);
    const reg = createRegistration(eventId, parent.id, options);
    const outcome = assignToGroup(eventId, { registrationId: reg.id }, group, lead);
    expect(outcome).toMatchObject({ ok: false, status: 409 });
    expect(groupAssignments(eventId).byRegistration.has(reg.id)).toBe(false);
  });

  it("accepts an open registration that holds a place", () => {
    const group = newGroup("Offen");
    const reg = createRegistration(eventId, parent.id, { status: "open" });
    expect(assignToGroup(eventId, { registrationId: reg.id }, group, lead)).toMatchObject({ ok: true });
  });

  it.each(["pending", "declined"] as const)("refuses a %s helper, accepts an accepted one", async (status) => {
    const group = newGroup(`H-${status}`);
    const helper = await createUser();
    addHelper(eventId, helper.id, status);
    expect(assignToGroup(eventId, { helperUserId: helper.id }, group, lead)).toMatchObject({
      ok: false,
      status: 409,
      message: "Nur angenommene Mitarbeiter*innen können einer Gruppe zugeordnet werden.",
    });
    const accepted = await createUser({ firstName: "Hanna", lastName: `Helfer-${status}` });
    addHelper(eventId, accepted.id, "accepted");
    expect(assignToGroup(eventId, { helperUserId: accepted.id }, group, lead)).toMatchObject({ ok: true, message: `Die Zuordnung von Hanna Helfer-${status} zur Gruppe "H-${status}" wurde gespeichert.` });
    expect(groupAssignments(eventId).byHelper.get(accepted.id)).toBe(group);
  });

  it("deleting a group ungroups its members", () => {
    const group = newGroup("Weg");
    const reg = createRegistration(eventId, parent.id);
    assignToGroup(eventId, { registrationId: reg.id }, group, lead);
    expect(deleteGroup(otherEventId, group)).toMatchObject({ ok: false, status: 404 });
    expect(deleteGroup(eventId, group)).toMatchObject({ ok: true });
    expect(groupAssignments(eventId).byRegistration.has(reg.id)).toBe(false);
    expect(listEventGroups(eventId).some((g) => g.id === group)).toBe(false);
  });
});

describe("handleGroupForm", () => {
  it("assigns for staff and answers with a flash redirect to backTo", async () => {
    const group = newGroup("Formular");
    const reg = createRegistration(eventId, parent.id);
    const { request } = post(`/freizeit/participants/${eventId}`, { intent: "assign-group", registrationId: String(reg.id), groupId: String(group) }, { cookie: await sessionCookieFor(lead.id) });
    const response = await handleGroupForm(request, eventId, `/freizeit/participants/${eventId}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/freizeit/participants/${eventId}`);
    expect(groupAssignments(eventId).byRegistration.get(reg.id)).toBe(group);
  });

  it("sends a parent home and changes nothing", async () => {
    const group = newGroup("Fremdzugriff");
    const reg = createRegistration(eventId, parent.id);
    const { request } = post(`/freizeit/participants/${eventId}`, { intent: "assign-group", registrationId: String(reg.id), groupId: String(group) }, { cookie: await sessionCookieFor(parent.id) });
    const response = await handleGroupForm(request, eventId, `/freizeit/participants/${eventId}`).catch((r: Response) => r);
    expect(response.headers.get("Location")).toBe("/");
    expect(groupAssignments(eventId).byRegistration.has(reg.id)).toBe(false);
  });

  it("the camp team assigns people but does not create, rename or delete groups (404)", async () => {
    const team = await createUser();
    addHelper(eventId, team.id, "accepted");
    const cookie = await sessionCookieFor(team.id);
    const group = newGroup("Nur Leitung");
    const reg = createRegistration(eventId, parent.id);
    const assigned = await handleGroupForm(post(`/x`, { intent: "assign-group", registrationId: String(reg.id), groupId: String(group) }, { cookie }).request, eventId, `/freizeit/helper/${eventId}`);
    expect(assigned.status).toBe(302);
    expect(groupAssignments(eventId).byRegistration.get(reg.id)).toBe(group);
    for (const form of <Record<string, string>[]>[
      { intent: "create-group", name: "Team-Gruppe" },
      { intent: "rename-group", groupId: String(group), name: "Umbenannt" },
      { intent: "delete-group", groupId: String(group), confirm: "yes" },
    ]) {
      const response = await handleGroupForm(post(`/x`, form, { cookie }).request, eventId, `/freizeit/helper/${eventId}`).catch((r: Response) => r);
      expect(response.status).toBe(404);
    }
    expect(listEventGroups(eventId).filter((g) => g.id === group || g.name === "Team-Gruppe").map((g) => g.name)).toEqual(["Nur Leitung"]);
  });

  it("a refused name (empty, taken) is a 4xx with the message for its field and what was typed; nothing is written", async () => {
    const cookie = await sessionCookieFor(lead.id);
    const taken = newGroup("Biber");
    const other = newGroup("Otter");
    const before = listEventGroups(eventId).length;
    const cases: [Record<string, string>, number, object][] = [
      [{ intent: "create-group", name: "   " }, 400, { intent: "create-group", groupId: null, name: "   ", title: "Upps", message: "Du musst einen Gruppennamen angeben..." }],
      [{ intent: "create-group", name: "Biber" }, 409, { intent: "create-group", groupId: null, name: "Biber", message: 'Es gibt schon eine Gruppe "Biber" in dieser Veranstaltung.' }],
      [{ intent: "rename-group", groupId: String(other), name: "Biber" }, 409, { intent: "rename-group", groupId: other, name: "Biber" }],
    ];
    for (const [form, status, reply] of cases) {
      const response = await handleGroupForm(post(`/x`, form, { cookie }).request, eventId, `/freizeit/helper/${eventId}`);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { groupName: object }).groupName).toMatchObject(reply);
    }
    expect(listEventGroups(eventId)).toHaveLength(before);
    expect(listEventGroups(eventId).find((g) => g.id === other)?.name).toBe("Otter");
    expect(listEventGroups(eventId).find((g) => g.id === taken)?.name).toBe("Biber");
  });

  // A double click (an attacker's probe): the second answer said the group existed, and a page
  // with JavaScript showed that error for the group just made. The form's one-time key finds the
  // first answer; the helper list's loader gives the form a key.
  it("the same create form sent twice makes one group and answers both as made", async () => {
    const cookie = await sessionCookieFor(lead.id);
    const form = { intent: "create-group", name: "Adler", submissionKey: "gruppe-adler-0123456789" };
    const answers = await Promise.all([1, 2].map(() => handleGroupForm(post(`/x`, form, { cookie }).request, eventId, `/freizeit/helper/${eventId}`)));
    expect(answers.map((r) => r.status)).toEqual([302, 302]);
    for (const response of answers) {
      const flash = await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(response, "lf_flash")! } }));
      expect(flash?.flash).toMatchObject({ kind: "success", message: 'Du hast erfolgreich die Gruppe "Adler" angelegt.' });
    }
    expect(listEventGroups(eventId).filter((g) => g.name === "Adler")).toHaveLength(1);
    // Another form (a new key) with the same name is refused as taken.
    const again = await handleGroupForm(post(`/x`, { ...form, submissionKey: "gruppe-adler-9876543210" }, { cookie }).request, eventId, `/freizeit/helper/${eventId}`);
    expect(again.status).toBe(409);
    const data = await body<{ groupFormKey: string }>(await run(helperListLoader, get(`/freizeit/helper/${eventId}`, { cookie, params: { id: String(eventId) } })));
    expect(data.groupFormKey).toMatch(/^[\w-]{16,64}$/);
  });

  it("answers 400 for a malformed id", async () => {
    const { request } = post(`/x`, { intent: "assign-group", registrationId: "1; drop", groupId: "2" }, { cookie: await sessionCookieFor(lead.id) });
    const response = await handleGroupForm(request, eventId, `/freizeit/participants/${eventId}`).catch((r: Response) => r);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Ungültige Angaben");
  });

  it("asks for confirmation before deleting", async () => {
    const group = newGroup("Bestätigen");
    const cookie = await sessionCookieFor(lead.id);
    const first = await handleGroupForm(post(`/x`, { intent: "delete-group", groupId: String(group) }, { cookie }).request, eventId, `/freizeit/helper/${eventId}`);
    expect(first.headers.get("Location")).toBe(`/freizeit/helper/${eventId}?gruppeLoeschen=${group}`);
    expect(listEventGroups(eventId).some((g) => g.id === group)).toBe(true);
    const second = await handleGroupForm(post(`/x`, { intent: "delete-group", groupId: String(group), confirm: "yes" }, { cookie }).request, eventId, `/freizeit/helper/${eventId}?gruppeLoeschen=${group}`);
    expect(second.headers.get("Location")).toBe(`/freizeit/helper/${eventId}`);
    expect(listEventGroups(eventId).some((g) => g.id === group)).toBe(false);
  });
});
