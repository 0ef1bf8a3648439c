// Camp sheets (issue 11 item 5): staff only (404 for everyone else), one sheet per group with both
// guardian phones and 'Notfallkontakt fehlt!', accepted registrations only, constant queries.
import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { loader } from "~/routes/freizeit.participants.$id_.notfall.($groupId)";
import { assignToGroup, createGroup } from "~/models/group.server";
import { getCampSheets } from "~/models/camp-sheet.server";
import { db } from "~/services/db.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";
import { countStatements } from "../support/review-fixtures";
import { addHelperEntry, createRegistration } from "../support/helper-camp";
import { body, get, run } from "../support/remix";

type Person = { id: number };
let admin: Person, lead: Person, team: Person, parent: Person;
let eventId: number;

beforeEach(async () => {
  resetDatabase();
  admin = await createUser({ role: "admin" });
  lead = await createUser();
  team = await createUser({ firstName: "Tom", lastName: "Team" });
  parent = await createUser();
  eventId = createEvent({ ownerIds: [lead.id], dateFrom: "2030-07-01", dateTo: "2030-07-08" }).id;
  addHelperEntry(eventId, team.id, "accepted");
});

function group(name: string) {
  const outcome = createGroup(eventId, name);
  if (!outcome.ok || outcome.groupId === null) throw new Error(outcome.message);
  return outcome.groupId;
}

async function sheet(actor: Person | null, groupId?: number | string) {
  const path = `/freizeit/participants/${eventId}/notfall${groupId === undefined ? "" : `/${groupId}`}`;
  const params: Record<string, string> = { id: String(eventId) };
  if (groupId !== undefined) params.groupId = String(groupId);
  return run(loader, get(path, { cookie: actor ? await sessionCookieFor(actor.id) : undefined, params }));
}

describe("who reaches the camp sheet", () => {
  it("admin, lead person and accepted helper", async () => {
    for (const who of [admin, lead, team]) expect((await sheet(who)).status).toBe(200);
  });

  it("nobody else: parent, pending and declined helper get 404; signed out goes to the login", async () => {
    const pending = await createUser();
    const declined = await createUser();
    addHelperEntry(eventId, pending.id, "pending");
    addHelperEntry(eventId, declined.id, "declined");
    for (const who of [parent, pending, declined]) expect((await sheet(who)).status).toBe(404);
    expect((await sheet(null)).headers.get("Location")).toMatch(/^\/login/);
  });

  it("a group of another event or a bad id is 404", async () => {
    const other = createEvent({ ownerIds: [lead.id] }).id;
    const foreign = createGroup(other, "Fremd");
    expect((await sheet(lead, foreign.ok ? foreign.groupId! : 0)).status).toBe(404);
    expect((await sheet(lead, "abc")).status).toBe(404);
  });
});

describe("the sheets", () => {
  it("one per group, children with age at the start, both phones, the flag, helpers with phone", async () => {
    db.update(users).set({ phone: "0151 2223334" }).where(eq(users.id, team.id)).run();
    const foxes = group("Füchse");
    const owls = group("Eulen");
    const anna = createRegistration(eventId, parent.id, { firstName: "Anna", lastName: "Berg", birthDate: "2020-07-01", mobilePhone: "0171 1", phone: "04522 2" });
    const ben = createRegistration(eventId, parent.id, { firstName: "Ben", lastName: "Acker", birthDate: "2020-07-02", mobilePhone: "", phone: "" });
    const carl = createRegistration(eventId, parent.id, { firstName: "Carl", guardian: false });
    createRegistration(eventId, parent.id, { firstName: "Wartend", status: "open", waiting: 1 });
    createRegistration(eventId, parent.id, { firstName: "Abgelehnt", status: "rejected" });
    assignToGroup(eventId, { registrationId: anna.id }, foxes, lead);
    assignToGroup(eventId, { registrationId: ben.id }, foxes, lead);
    assignToGroup(eventId, { helperUserId: team.id }, foxes, lead);
    const data = await body<{ sheets: { id: number | null; name: string; children: { firstName: string; age: number; mobilePhone: string; phone: string; noEmergencyContact: boolean }[]; helpers: { phone: string | null }[] }[] }>(await sheet(lead));
    expect(data.sheets.map((s) => s.name)).toEqual(["Eulen", "Füchse", "Ohne Gruppe"]);
    const fox = data.sheets.find((s) => s.id === foxes)!;
    expect(fox.children.map((c) => c.firstName)).toEqual(["Ben", "Anna"]);
    expect(fox.children[1]).toMatchObject({ age: 10, mobilePhone: "0171 1", phone: "04522 2", noEmergencyContact: false });
    expect(fox.children[0]).toMatchObject({ age: 9, noEmergencyContact: true });
    expect(fox.helpers).toEqual([expect.objectContaining({ phone: "0151 2223334" })]);
    expect(data.sheets.find((s) => s.id === owls)!.children).toEqual([]);
    const loose = data.sheets.find((s) => s.id === null)!;
    expect(loose.children.map((c) => c.firstName)).toEqual(["Carl"]);
    expect(loose.children[0].noEmergencyContact).toBe(true);
    const one = await body<{ sheets: { id: number }[] }>(await sheet(team, foxes));
    expect(one.sheets.map((s) => s.id)).toEqual([foxes]);
    expect(carl.id).toBeGreaterThan(0);
  });

  it("needs the same number of queries for 5 and for 500 children", async () => {
    const groups = [group("A"), group("B"), group("C")];
    const fill = (n: number) => {
      for (let i = 0; i < n; i++) {
        const r = createRegistration(eventId, parent.id);
        if (i % 4) assignToGroup(eventId, { registrationId: r.id }, groups[i % 3], lead);
      }
    };
    const count = async () => {
      const { result, statements } = await countStatements(async () => getCampSheets(eventId));
      expect(result).not.toBeNull();
      return statements;
    };
    fill(5);
    const few = await count();
    fill(495);
    expect(getCampSheets(eventId)!.sheets.reduce((n, s) => n + s.children.length, 0)).toBe(500);
    expect(few).toBeGreaterThan(2);
    expect(await count()).toBe(few);
  }, 60_000);
});
