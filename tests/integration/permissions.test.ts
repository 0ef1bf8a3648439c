// The role table of DECISIONS.md ('Who may do what on an event's lists'), for every role and
// every capability, and the roles as the database gives them.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { db } from "~/services/db.server";
import { CAPABILITIES, can, eventAccess, requireEventCapability, type Capability, type EventRole } from "~/services/permissions.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";

const ALL = true;
const TEAM: Capability[] = ["viewLists", "viewDetails", "comment", "assignGroups", "export"];
const EXPECTED: Record<EventRole, Capability[] | typeof ALL> = {
  admin: ALL,
  lead: ALL,
  team: TEAM,
  applicant: [],
  none: [],
};

describe("the role table", () => {
  for (const [role, allowed] of Object.entries(EXPECTED) as [EventRole, Capability[] | true][]) {
    for (const capability of CAPABILITIES) {
      const expected = allowed === true || allowed.includes(capability);
      it(`${role} ${expected ? "may" : "may not"} ${capability}`, () => {
        expect(can(role, capability)).toBe(expected);
      });
    }
  }
});

describe("roles from the database", () => {
  const people: Record<string, { id: number; role: "user" | "admin"; email: string; firstName: string; lastName: string }> = {};
  let eventId: number;

  beforeAll(async () => {
    resetDatabase();
    for (const name of ["admin", "lead", "demotedLead", "team", "pending", "declined", "parent"]) {
      const user = await createUser({ role: name === "admin" || name === "demotedLead" ? "admin" : "user" });
      people[name] = { id: user.id, role: user.role, email: user.email, firstName: user.firstName, lastName: user.lastName };
    }
    eventId = createEvent({
      ownerIds: [people.lead.id, people.demotedLead.id],
      helpers: [
        [people.team.id, "accepted"],
        [people.pending.id, "pending"],
        [people.declined.id, "declined"],
        [people.lead.id, "accepted"],
      ],
    }).id;
    db.update(users).set({ role: "user" }).where(eq(users.id, people.demotedLead.id)).run();
    people.demotedLead.role = "user";
  });

  it.each([
    ["admin", "admin"],
    ["lead", "lead"],
    ["demotedLead", "lead"],
    ["team", "team"],
    ["pending", "applicant"],
    ["declined", "applicant"],
    ["parent", "none"],
  ])("%s is %s", (name, role) => {
    expect(eventAccess(eventId, people[name])!.role).toBe(role);
  });

  it("a visitor has no role; an unknown event has no access at all", () => {
    expect(eventAccess(eventId, null)!.role).toBe("none");
    expect(eventAccess(999_999, people.admin)).toBeNull();
    expect(eventAccess(Number.NaN, people.admin)).toBeNull();
  });

  it("requireEventCapability: signed out → /login, denied list → /, denied detail → 404, allowed → the access", async () => {
    const ask = async (name: string | null, capability: Capability, denied: "home" | "not-found") => {
      const headers = name ? { Cookie: await sessionCookieFor(people[name].id) } : undefined;
      try {
        const access = await requireEventCapability(new Request("http://localhost/x", { headers }), String(eventId), capability, denied);
        return access.role;
      } catch (thrown) {
        const response = thrown as Response;
        return response.status === 404 ? 404 : response.headers.get("Location");
      }
    };
    expect(await ask(null, "viewLists", "home")).toMatch(/^\/login\?redirectTo=/);
    expect(await ask("parent", "viewLists", "home")).toBe("/");
    expect(await ask("pending", "viewDetails", "not-found")).toBe(404);
    expect(await ask("team", "viewSepa", "not-found")).toBe(404);
    expect(await ask("team", "viewLists", "home")).toBe("team");
    expect(await ask("demotedLead", "decideRegistrations", "not-found")).toBe("lead");
  });
});
