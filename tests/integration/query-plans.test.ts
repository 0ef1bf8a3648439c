// The admin's user list reads its page straight from the index of the same order (German name
// order, users_role_name_order_idx): no sorting of every account for a page of 50.
import { describe, expect, it } from "vitest";
import { listAdminUsers } from "~/models/admin.server";
import { rawSqlite } from "~/services/db.server";
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
