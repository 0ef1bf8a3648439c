// The connection's cache of compiled statements (db.server.ts): a statement comes back compiled,
// in its default mode whatever the last user switched, and never twice while it is iterating.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { db, preparedQuery, rawSqlite } from "~/services/db.server";
import { createUser } from "../support/fixtures";

describe("the statement cache", () => {
  it("hands out one compiled statement per SQL text, always in object mode", async () => {
    const sqlite = rawSqlite();
    await createUser({ email: "cache@example.org" });
    const first = sqlite.prepare("SELECT email FROM users WHERE email = ?");
    expect(first.raw().get("cache@example.org")).toEqual(["cache@example.org"]);
    const again = sqlite.prepare("SELECT email FROM users WHERE email = ?");
    expect(again).toBe(first);
    expect(again.get("cache@example.org")).toEqual({ email: "cache@example.org" });
    expect(sqlite.prepare("SELECT email FROM users WHERE email = ?").pluck().get("cache@example.org")).toBe("cache@example.org");
    expect(sqlite.prepare("SELECT email FROM users WHERE email = ?").get("cache@example.org")).toEqual({ email: "cache@example.org" });
    // Writing statements have no modes and are kept as well.
    const update = sqlite.prepare("UPDATE users SET first_name = ? WHERE email = ?");
    expect(sqlite.prepare("UPDATE users SET first_name = ? WHERE email = ?")).toBe(update);
  });

  it("compiles a second statement while the first is still iterating", async () => {
    const sqlite = rawSqlite();
    await createUser({ email: "a@example.org" });
    await createUser({ email: "b@example.org" });
    const text = "SELECT email FROM users ORDER BY email";
    const seen: string[] = [];
    for (const row of sqlite.prepare(text).iterate() as IterableIterator<{ email: string }>) {
      const inner = sqlite.prepare(text);
      seen.push(`${row.email}:${(inner.all() as unknown[]).length}`);
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen.map((s) => s.split(":")[1])).size).toBe(1);
  });

  it("drizzle's queries read the same rows through it, in raw and in object mode", async () => {
    await createUser({ email: "drizzle@example.org", firstName: "Dora" });
    const select = () => db.select({ firstName: users.firstName }).from(users).where(eq(users.email, "drizzle@example.org")).get();
    expect(select()).toEqual({ firstName: "Dora" });
    expect(db.all(sql`SELECT first_name AS firstName FROM users WHERE email = ${"drizzle@example.org"}`)).toEqual([{ firstName: "Dora" }]);
    expect(select()).toEqual({ firstName: "Dora" });
  });

  it("a prepared drizzle query is built once per connection and takes its values at each call", async () => {
    let builds = 0;
    const byEmail = preparedQuery((database) => {
      builds++;
      return database.select({ email: users.email }).from(users).where(eq(users.email, sql.placeholder("email"))).prepare();
    });
    await createUser({ email: "one@example.org" });
    await createUser({ email: "two@example.org" });
    expect(byEmail().get({ email: "one@example.org" })).toEqual({ email: "one@example.org" });
    expect(byEmail().get({ email: "two@example.org" })).toEqual({ email: "two@example.org" });
    expect(builds).toBe(1);
  });
});
