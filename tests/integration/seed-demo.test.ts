import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_DOMAIN, DEMO_PASSWORD, resetDemoData, seedDemo } from "../../db/seed-demo";
import { EMAIL_PATTERN } from "~/lib/email";
import { enrolmentReference } from "~/lib/transfer";
import { loader as confirmationLoader } from "~/routes/anmeldung.$enrolmentId";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { register } from "../support/lists-fixtures";
import { body, get, run } from "../support/remix";
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
    // The enrolment's own answers, as its form asks them: the lists' columns are filled.
    expect(one(sql`select count(*) from registrations r join events e on e.id = r.event_id where e.tshirt_size_required = 1 and r.tshirt_size is null`)).toBe(0);
    expect(one(sql`select count(*) from registrations r join events e on e.id = r.event_id where e.swim_badge_required = 1 and r.swim_badge is null`)).toBe(0);
    expect(one(sql`select count(*) from registrations r join events e on e.id = r.event_id where e.swim_badge_required = 1`)).toBeGreaterThan(0);
    expect(one(sql`select count(*) from users where role = 'admin'`)).toBe(result.admins.length);

    // Every registration belongs to an enrolment: one per family and event, one payment method,
    // the app's reference; amounts with the sibling discount, none for a waiting child.
    expect(one(sql`select count(*) from registrations where enrolment_id is null or submission_key is null`)).toBe(0);
    expect(one(sql`select count(*) from enrolments`)).toBe(one(sql`select count(*) from (select distinct user_id, event_id from registrations)`));
    expect(one(sql`select count(*) from enrolments where reference <> 'LF-' || event_id || '-A' || id`)).toBe(0);
    const sample = db.get<{ id: number; event_id: number; reference: string }>(sql`select id, event_id, reference from enrolments order by id limit 1`);
    expect(sample.reference).toBe(enrolmentReference(sample.event_id, sample.id));
    expect(
      one(sql`select count(*) from registrations r join enrolments n on n.id = r.enrolment_id
        where r.payment_method <> n.payment_method or r.user_id <> n.user_id or r.event_id <> n.event_id or r.submission_key <> n.submission_key`),
    ).toBe(0);
    expect(one(sql`select count(*) from registrations where waiting_list_position is not null and amount_cents is not null`)).toBe(0);
    expect(one(sql`select count(*) from registrations where waiting_list_position is null and amount_cents is null`)).toBe(0);
    expect(one(sql`select count(*) from events where sibling_discount_cents > 0`)).toBeGreaterThan(0);
    // Each enrolment: its first child with a place pays the price, every further one the discounted price.
    const amounts = db.all<{ enrolment_id: number; amount_cents: number; price_cents: number; sibling_discount_cents: number }>(
      sql`select r.enrolment_id, r.amount_cents, e.price_cents, e.sibling_discount_cents from registrations r join events e on e.id = r.event_id
        where r.waiting_list_position is null order by r.enrolment_id, r.id`,
    );
    let discounted = 0;
    amounts.forEach((row, i) => {
      const first = i === 0 || amounts[i - 1].enrolment_id !== row.enrolment_id;
      expect(row.amount_cents).toBe(first ? row.price_cents : Math.max(0, row.price_cents - row.sibling_discount_cents));
      if (!first && row.sibling_discount_cents > 0) discounted++;
    });
    expect(discounted).toBeGreaterThan(0);
    expect(one(sql`select count(*) from registrations where amount_cents > 0`)).toBeGreaterThan(0);
    // A family's confirmation page opens with its reference and a total that is not 0,00 €.
    const family = db.get<{ id: number; user_id: number; reference: string }>(
      sql`select n.id, n.user_id, n.reference from enrolments n join events e on e.id = n.event_id
        where e.price_cents > 0 and exists (select 1 from registrations r where r.enrolment_id = n.id and r.waiting_list_position is null) order by n.id limit 1`,
    );
    const page = await run(confirmationLoader, get(`/anmeldung/${family.id}`, { cookie: await sessionCookieFor(family.user_id), params: { enrolmentId: String(family.id) } }));
    expect(page.status).toBe(200);
    const shown = await body<{ enrolment: { reference: string; totalCents: number } }>(page);
    expect(shown.enrolment.reference).toBe(family.reference);
    expect(shown.enrolment.totalCents).toBeGreaterThan(0);

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
      const money = other.all<{ t: string }>(
        sql`select n.reference || '|' || n.payment_method || '|' || coalesce(r.amount_cents, '-') as t from registrations r join enrolments n on n.id = r.enrolment_id order by r.id`,
      );
      sqlite.close();
      return [...rows, ...people, ...money].map((r) => r.t);
    };
    expect(titles()).toEqual(titles());
  });

  describe("--reset", () => {
    const one = (query: ReturnType<typeof sql>) => Number(Object.values(db.get<Record<string, number>>(query))[0]);
    const demoEvents = () => one(sql`select count(*) from events e join users u on u.id = e.created_by_id where u.email like ${`%@${DEMO_DOMAIN}`}`);

    it("replaces the demo data and keeps the other accounts, such as the first admin", async () => {
      resetDatabase();
      const firstAdmin = await createUser({ role: "admin", email: "admin@example.org" });
      seedDemo(db, { events: 6, users: 10, registrations: 20 }, "hash");
      expect(demoEvents()).toBe(6);
      resetDemoData(db);
      expect(one(sql`select count(*) from events`)).toBe(0);
      expect(one(sql`select count(*) from users`)).toBe(1);
      expect(one(sql`select count(*) from users where id = ${firstAdmin.id}`)).toBe(1);
    });

    it("refuses a database with events or enrolments that are not demo data, and deletes nothing", async () => {
      // A newcomer's review: --reset deleted every event of the database it was pointed at, a
      // real association's included.
      resetDatabase();
      const admin = await createUser({ role: "admin" });
      seedDemo(db, { events: 6, users: 10, registrations: 20 }, "hash");
      const real = createEvent({ title: "Echtes Zeltlager", createdById: admin.id });
      expect(() => resetDemoData(db)).toThrow("1 Veranstaltung, die nicht aus den Demo-Daten stammt");
      expect(one(sql`select count(*) from events`)).toBe(7);

      db.run(sql`update events set created_by_id = (select id from users where email like ${`%@${DEMO_DOMAIN}`} limit 1) where id = ${real.id}`);
      const parent = await createUser();
      register(real.id, { userId: parent.id });
      expect(() => resetDemoData(db)).toThrow("1 Anmeldung eines Kontos, das nicht aus den Demo-Daten stammt");
      expect(one(sql`select count(*) from events`)).toBe(7);
    });
  });
});
