import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { eq } from "drizzle-orm";
import { ensureInitialAdmin } from "~/models/user.server";
import { db } from "~/services/db.server";
import { verifyPassword } from "~/services/password.server";

describe("the initial admin", () => {
  it("is created once on an empty database, confirmed, with an argon2id hash", async () => {
    const created = await ensureInitialAdmin({ email: "Leitung@Example.org", password: "Lagerfeuer-2026" });
    expect(created).toMatchObject({ email: "leitung@example.org", generatedPassword: undefined });
    const admin = db.select().from(users).where(eq(users.email, "leitung@example.org")).get()!;
    expect(admin.role).toBe("admin");
    expect(admin.emailConfirmedAt).not.toBeNull();
    expect(admin.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin.passwordHash, "Lagerfeuer-2026")).toBe(true);
    expect(await verifyPassword(admin.passwordHash, "falsch")).toBe(false);

    expect(await ensureInitialAdmin({ email: "zweite@example.org", password: "Lagerfeuer-2026" })).toBeNull();
    expect(db.select().from(users).all()).toHaveLength(1);
  });
});

describe("the initial admin without a configured password", () => {
  it("gets a generated password that meets the password rules", async () => {
    db.delete(users).run();
    const created = await ensureInitialAdmin({ email: "admin@example.org" });
    const password = created!.generatedPassword!;
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect(password.length).toBeLessThanOrEqual(72);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/\d/);
    expect(password).toMatch(/[^A-Za-z0-9]/);
    const admin = db.select().from(users).where(eq(users.email, "admin@example.org")).get()!;
    expect(await verifyPassword(admin.passwordHash, password)).toBe(true);
  });
});
