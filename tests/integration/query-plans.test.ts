// The admin's user list reads its page straight from the index of the same order (German name
// order, users_role_name_order_idx): no sorting of every account for a page of 50. An enrolment's
// counts of places read only the rows that hold one, never the whole waiting list.
import { describe, expect, it } from "vitest";
import { listAdminUsers } from "~/models/admin.server";
import { eventPlacesBefore, placesTakenOf } from "~/models/enrollment-queries.server";
import { waitingPlace } from "~/models/registration-change.server";
import { eq } from "drizzle-orm";
import { db } from "~/services/db.server";
import { registrations } from "../../db/schema";
import { rawSqlite } from "~/services/db.server";
import { eventAccess } from "~/services/permissions.server";
import { createUser } from "../support/fixtures";
import { recordStatements } from "../support/review-fixtures";

function planOf(source: string) {
  const parameters = (source.match(/\?/g) ?? []).map(() => "user");
  return (rawSqlite().prepare(`EXPLAIN QUERY PLAN ${source}`).all(...parameters) as { detail: string }[]).map((row) => row.detail).join(" | ");
}

describe("the user list's query plan", () => {
  it("walks the name-order index for a page, in the list's order, without a sort", async () => {
    for (const lastName of ["Özdemir", "Meyer", "Ahrens", "Übel", "Zander"]) await createUser({ lastName, firstName: "Kim" });
    const { result: page, statements } = await recordStatements(() => listAdminUsers({ query: "", page: 1 }));
    const pageQuery = statements.find((s) => /\blimit\b/i.test(s))!;
    expect(planOf(pageQuery)).toContain("users_role_name_order_idx");
    expect(planOf(pageQuery)).not.toContain("TEMP B-TREE");
    const names = page.users.map((u) => u.lastName).filter((n) => ["Özdemir", "Meyer", "Ahrens", "Übel", "Zander"].includes(n));
    expect(names).toEqual(["Ahrens", "Meyer", "Özdemir", "Übel", "Zander"]);
  });
});

describe("the enrolment's counts of places", () => {
  const plan = (query: { getQuery(): { sql: string; params: unknown[] } }) => {
    const { sql, params } = query.getQuery();
    return (rawSqlite().prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map(() => 1)) as { detail: string }[]).map((row) => row.detail).join(" | ");
  };

  it("counts places taken from the indexes of placed registrations and of offers only", () => {
    const detail = plan(placesTakenOf());
    expect(detail).toContain("registrations_place_holding_idx");
    expect(detail).toContain("registrations_event_offer_idx");
    expect(detail).not.toContain("registrations_event_status_idx");
  });

  it("finds the waiting list's end and the account's places without reading the waiting list", () => {
    const detail = plan(eventPlacesBefore());
    expect(detail).toContain("registrations_event_waiting_unique");
    expect(detail).toContain("registrations_event_offer_idx"); // the open offers, not in line
    expect(detail).toContain("registrations_user_idx");
    expect(detail).not.toContain("registrations_event_status_idx");
  });
});

describe("a waiting child's place in line", () => {
  it("counts the waiting list before it from the positions' index and the offers before it from the offers' index", () => {
    // A query on registrations alone: drizzle names its columns without their table.
    const { sql, params } = db.select({ place: waitingPlace }).from(registrations).where(eq(registrations.enrolmentId, 1)).toSQL();
    const detail = (rawSqlite().prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(" | ");
    expect(detail).toContain("CORRELATED SCALAR SUBQUERY 1 | SEARCH ahead USING COVERING INDEX registrations_event_waiting_unique (event_id=? AND waiting_list_position<?)");
    expect(detail).toContain("CORRELATED SCALAR SUBQUERY 2 | SEARCH offered USING INDEX registrations_event_offer_idx (event_id=?)");
  });
});

describe("the permissions' query", () => {
  it("asks the event's own lead persons and helpers (subqueries tied to the event's row)", async () => {
    const { statements } = await recordStatements(() => eventAccess(1, { id: 2, role: "user", email: "a@example.org", firstName: "A", lastName: "B" }));
    const [query] = statements;
    expect(query).toContain('= "events"."id"');
    const detail = (rawSqlite().prepare(`EXPLAIN QUERY PLAN ${query}`).all(2, 2, 1) as { detail: string }[]).map((row) => row.detail).join(" | ");
    expect(detail.match(/CORRELATED SCALAR SUBQUERY/g)).toHaveLength(2);
  });
});
