import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_DOMAIN, DEMO_PASSWORD, seedDemo } from "../../db/seed-demo";
import { EMAIL_PATTERN } from "~/lib/email";
import { db, migrateDatabase, openDatabase } from "~/services/db.server";
import { hashPassword, verifyPassword } from "~/services/password.server";

describe("demo data", () => {
  it("holds every state the screens show", async () => {
    const hash = await hashPassword(DEMO_PASSWORD);
    const result = seedDemo(db, { events: 24, users: 60, registrations: 300 }, hash);
    expect(result.counts).toMatchObject({ events: 24, users: 60, registrations: 300 });
    const one = (query: ReturnType<typeof sql>) => Number(Object.values(db.get<Record<string, number>>(query))[0]);

    expect(one(sql`select count(*) from events where starts_at < ${Date.now()}`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from events where starts_at > ${Date.now()}`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from events where only_staff_visible = 1`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from events where requires_application = 0`)).toBeGreaterThan(0);
    for (const status of ["open", "accepted", "rejected"]) {
      expect(one(sql`select count(*) from registrations where application_status = ${status}`)).toBeGreaterThan(0);
    }
    for (const status of ["pending", "accepted", "declined"]) {
      expect(one(sql`select count(*) from event_helpers where status = ${status}`)).toBeGreaterThan(0);
    }
    expect(one(sql`select count(*) from registrations where waiting_list_position is not null`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from registrations where paid = 1`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from registrations where payment_method = 'sepa' and sepa_mandate_id is not null`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from group_members where registration_id is not null`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from group_members where helper_user_id is not null`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from guardians`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from users where role = 'admin'`)).toBe(result.admins.length);

    // No event holds more place-taking registrations than it has places.
    expect(
      one(sql`select count(*) from (select e.id from events e join registrations r on r.event_id = e.id
        where e.capacity is not null and r.waiting_list_position is null and r.application_status in ('open','accepted')
        group by e.id having count(*) > e.capacity)`),
    ).toBe(0);

    // Every demo address passes the app's own e-mail rule ('Passwort vergessen' works for them).
    const addresses = db.all<{ email: string }>(sql`select email from users where email like ${`%@${DEMO_DOMAIN}`}`);
    expect(addresses.length).toBe(60);
    expect(addresses.filter((a) => !EMAIL_PATTERN.test(a.email))).toEqual([]);

    const admin = db.get<{ password_hash: string }>(sql`select password_hash from users where email = ${result.admins[0].email}`);
    expect(await verifyPassword(admin.password_hash, DEMO_PASSWORD)).toBe(true);
  });

  it("is the same every time", () => {
    const titles = () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), "lf-seed-")), "seed.db");
      const { db: other, sqlite } = openDatabase(file);
      migrateDatabase(sqlite);
      seedDemo(other, { events: 10, users: 20, registrations: 50 }, "hash");
      const rows = other.all<{ t: string }>(sql`select title || '|' || date_from || '|' || location as t from events order by id`);
      const people = other.all<{ t: string }>(sql`select email || first_name || last_name as t from users order by id`);
      sqlite.close();
      return [...rows, ...people].map((r) => r.t);
    };
    expect(titles()).toEqual(titles());
  });
});
