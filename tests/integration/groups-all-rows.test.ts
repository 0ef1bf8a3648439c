// Sorting into groups without JavaScript (leaders' review, carried from the last round): the
// list's group selects belong to one form, so any row's 'Speichern' saves every row that was
// changed, in one transaction. Each select's name carries the group the page showed: a row
// someone else changed since is not overwritten, an unchanged row is not touched at all, and the
// answer names what was saved and what was not.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { groupMembers, registrations } from "../../db/schema";
import { deleteGroup } from "~/models/group.server";
import { db } from "~/services/db.server";
import { takeFlash } from "~/services/flash.server";
import { handleGroupForm } from "~/services/group-form.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { addHelperEntry, createRegistration } from "../support/helper-camp";
import { newGroup as makeGroup } from "../support/groups";
import { post } from "../support/remix";
import { countStatements } from "../support/review-fixtures";

let lead: { id: number };
let parent: { id: number };
let eventId: number;
let otherEventId: number;
let foxes: number;
let owls: number;
let cookie: string;

function newGroup(name: string, event = eventId) {
  return makeGroup(event, name);
}

function child(firstName: string, lastName: string, options: Parameters<typeof createRegistration>[2] = {}) {
  return createRegistration(eventId, parent.id, { firstName, lastName, ...options }).id;
}

function putIn(registrationId: number, groupId: number) {
  db.insert(groupMembers).values({ eventId, groupId, registrationId }).run();
}

function groupOf(where: { registrationId: number } | { helperUserId: number }) {
  const condition = "registrationId" in where ? eq(groupMembers.registrationId, where.registrationId) : eq(groupMembers.helperUserId, where.helperUserId);
  return db.select({ groupId: groupMembers.groupId }).from(groupMembers).where(condition).get()?.groupId ?? null;
}

/** One row of the list's form: the select's name says whom and which group the page showed. */
function row(kind: "r" | "h", id: number, shown: number | null, chosen: number | null): [string, string] {
  return [`group-${kind}${id}-from-${shown ?? 0}`, chosen === null ? "" : String(chosen)];
}

async function sendAll(rows: [string, string][], as = cookie, backTo = `/freizeit/participants/${eventId}`) {
  const { request } = post(backTo, { intent: "assign-groups", ...Object.fromEntries(rows) }, { cookie: as });
  return handleGroupForm(request, eventId, backTo).catch((r: Response) => r);
}

async function flashOf(response: Response) {
  const set = response.headers.getSetCookie().find((c) => c.startsWith("lf_flash="));
  if (!set) return null;
  return (await takeFlash(new Request("http://localhost/", { headers: { Cookie: set.split(";")[0] } })))?.flash ?? null;
}

beforeAll(async () => {
  resetDatabase();
  lead = await createUser();
  parent = await createUser();
  eventId = createEvent({ ownerIds: [lead.id] }).id;
  otherEventId = createEvent({ ownerIds: [lead.id], title: "Andere" }).id;
  foxes = newGroup("Füchse");
  owls = newGroup("Eulen");
  cookie = await sessionCookieFor(lead.id);
});

describe("every changed row of the list in one form", () => {
  it("saves all changed rows at once, leaves unchanged rows alone (even when the page was old) and names what it saved", async () => {
    const mia = child("Mia", "Acker");
    const noah = child("Noah", "Berg");
    const stale = child("Sina", "Still");
    putIn(noah, foxes);
    putIn(stale, owls); // put in after the page was drawn: the page still shows 'Keine Gruppe'
    const response = await sendAll([row("r", mia, null, foxes), row("r", noah, foxes, null), row("r", stale, null, null)]);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/freizeit/participants/${eventId}`);
    expect(await flashOf(response)).toEqual({ kind: "success", title: "Erfolgreich", message: 'Gespeichert: Mia Acker in "Füchse", Noah Berg ohne Gruppe.' });
    expect(groupOf({ registrationId: mia })).toBe(foxes);
    expect(groupOf({ registrationId: noah })).toBeNull();
    expect(groupOf({ registrationId: stale })).toBe(owls);
  });

  it("one changed row answers as the row's own form did", async () => {
    const ida = child("Ida", "Einzeln");
    const other = child("Olaf", "Ohne");
    const response = await sendAll([row("r", ida, null, owls), row("r", other, null, null)]);
    expect(await flashOf(response)).toMatchObject({ kind: "success", message: 'Die Zuordnung von Ida Einzeln zur Gruppe "Eulen" wurde gespeichert.' });
    expect(groupOf({ registrationId: ida })).toBe(owls);
    const out = await sendAll([row("r", ida, owls, null)]);
    expect(await flashOf(out)).toMatchObject({ kind: "success", message: "Ida Einzeln ist jetzt keiner Gruppe zugeordnet." });
  });

  it("nothing changed: says so and writes nothing", async () => {
    const same = child("Sam", "Gleich");
    putIn(same, foxes);
    const response = await sendAll([row("r", same, foxes, foxes)]);
    expect(await flashOf(response)).toEqual({ kind: "info", title: "Upps", message: "Du hast keine Gruppe geändert." });
    expect(groupOf({ registrationId: same })).toBe(foxes);
  });

  it("a row someone else changed since the page was drawn is not overwritten; the others are saved", async () => {
    const carla = child("Carla", "Konflikt");
    const ben = child("Ben", "Bär");
    putIn(carla, owls); // another leader, meanwhile
    const response = await sendAll([row("r", carla, null, foxes), row("r", ben, null, owls)]);
    expect(await flashOf(response)).toEqual({
      kind: "danger",
      title: "Nicht alles gespeichert",
      message:
        'Gespeichert: Ben Bär in "Eulen". Nicht gespeichert, weil jemand anderes die Gruppe inzwischen geändert hat: Carla Konflikt (jetzt in "Eulen"). Bitte prüfe diese Zeilen.',
    });
    expect(groupOf({ registrationId: carla })).toBe(owls);
    expect(groupOf({ registrationId: ben })).toBe(owls);
  });

  it("the group rules per row: a waiting child, a group deleted meanwhile, someone no longer on the list", async () => {
    const wim = child("Wim", "Warten", { waiting: 1 });
    const gone = newGroup("Gelöscht");
    const gerd = child("Gerd", "Gruppe");
    const foreignGroup = newGroup("Fremd", otherEventId);
    const fremd = child("Fritz", "Fremdgruppe");
    const stranger = createRegistration(otherEventId, parent.id, { firstName: "Xaver", lastName: "Anderswo" }).id;
    deleteGroup(eventId, gone);
    const response = await sendAll([row("r", wim, null, foxes), row("r", gerd, null, gone), row("r", fremd, null, foreignGroup), row("r", stranger, null, foxes)]);
    expect(await flashOf(response)).toEqual({
      kind: "danger",
      title: "Da hat etwas nicht geklappt",
      message:
        "Nicht gespeichert: Wim Warten – Nur offene oder angenommene Anmeldungen (nicht auf der Warteliste) können einer Gruppe zugeordnet werden. " +
        "Nicht gespeichert, weil es die Gruppe nicht mehr gibt: Gerd Gruppe, Fritz Fremdgruppe. " +
        "Nicht gespeichert: 1 Eintrag steht nicht mehr auf der Liste.",
    });
    for (const id of [wim, gerd, fremd, stranger]) expect(groupOf({ registrationId: id })).toBeNull();
  });

  it("long answers name five people and count the rest", async () => {
    const kids = Array.from({ length: 7 }, (_, i) => child(`Kind${i + 1}`, "Viele"));
    const response = await sendAll(kids.map((id) => row("r", id, null, foxes)));
    expect(await flashOf(response)).toMatchObject({ kind: "success", message: "Gespeichert: 7 Zuordnungen." });
    for (const id of kids) expect(groupOf({ registrationId: id })).toBe(foxes);
    for (const id of kids) db.update(registrations).set({ applicationStatus: "rejected" }).where(eq(registrations.id, id)).run();
    const refused = await sendAll(kids.map((id) => row("r", id, foxes, owls)));
    expect((await flashOf(refused))?.message).toBe(
      "Nicht gespeichert: Kind1 Viele, Kind2 Viele, Kind3 Viele, Kind4 Viele, Kind5 Viele und 2 weitere – Nur offene oder angenommene Anmeldungen (nicht auf der Warteliste) können einer Gruppe zugeordnet werden.",
    );
  });

  it("helpers on the helper list: accepted ones are sorted in, a pending one is not", async () => {
    const anna = await createUser({ firstName: "Anna", lastName: "Angenommen" });
    const paul = await createUser({ firstName: "Paul", lastName: "Offen" });
    addHelperEntry(eventId, anna.id, "accepted");
    addHelperEntry(eventId, paul.id, "pending");
    const response = await sendAll([row("h", anna.id, null, owls), row("h", paul.id, null, owls)], cookie, `/freizeit/helper/${eventId}`);
    expect(response.headers.get("Location")).toBe(`/freizeit/helper/${eventId}`);
    expect(await flashOf(response)).toEqual({
      kind: "danger",
      title: "Nicht alles gespeichert",
      message: 'Gespeichert: Anna Angenommen in "Eulen". Nicht gespeichert: Paul Offen – Nur angenommene Mitarbeiter*innen können einer Gruppe zugeordnet werden.',
    });
    expect(groupOf({ helperUserId: anna.id })).toBe(owls);
    expect(groupOf({ helperUserId: paul.id })).toBeNull();
  });

  it("the camp team may; a parent is sent home and nothing is written", async () => {
    const team = await createUser();
    addHelperEntry(eventId, team.id, "accepted");
    const tia = child("Tia", "Team");
    const byTeam = await sendAll([row("r", tia, null, owls)], await sessionCookieFor(team.id));
    expect(byTeam.status).toBe(302);
    expect(groupOf({ registrationId: tia })).toBe(owls);
    const byParent = await sendAll([row("r", tia, owls, foxes)], await sessionCookieFor(parent.id));
    expect(byParent.headers.get("Location")).toBe("/");
    expect(groupOf({ registrationId: tia })).toBe(owls);
  });

  it.each([
    ["a name that is no row", [["group-r1x-from-0", ""]]],
    ["a kind that is no list", [["group-q1-from-0", ""]]],
    ["a value that is no group", [["group-r1-from-0", "abc"]]],
    ["an id too long", [["group-r12345678901234567-from-0", ""]]],
    ["the same row twice", "twice"],
  ] as const)("%s: 400 'Ungültige Angaben', and the valid rows of the same body are not written either", async (_, bad) => {
    const valid = child("Vera", "Gültig");
    const extra: [string, string][] = bad === "twice" ? [row("r", valid, foxes, owls)] : (bad as unknown as [string, string][]);
    const response = await sendAll([row("r", valid, null, foxes), ...extra]);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Ungültige Angaben");
    expect(groupOf({ registrationId: valid })).toBeNull();
  });

  it("a form without rows is refused (400)", async () => {
    const response = await sendAll([]);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Ungültige Angaben");
  });

  it("a constant number of statements, however many rows change", async () => {
    const few = Array.from({ length: 2 }, (_, i) => child(`Wenig${i}`, "Zahl"));
    const many = Array.from({ length: 40 }, (_, i) => child(`Viel${i}`, "Zahl"));
    const one = await countStatements(() => sendAll(few.map((id) => row("r", id, null, foxes))));
    const lots = await countStatements(() => sendAll(many.map((id) => row("r", id, null, foxes))));
    expect(lots.statements).toBe(one.statements);
    for (const id of many) expect(groupOf({ registrationId: id })).toBe(foxes);
  });
});
