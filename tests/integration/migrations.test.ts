// Migrations keep every row: a migration that rebuilds a table (drizzle-kit does so to change a
// CHECK) must not cascade-delete the rows that refer to it.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrateDatabase, openDatabase } from "~/services/db.server";

/** A copy of db/migrations that stops after the first `count` migrations. */
function migrationsUpTo(count: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "lf-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** A new database file with the first `count` migrations applied. */
function databaseUpTo(count: number, name: string) {
  const { sqlite } = openDatabase(path.join(mkdtempSync(path.join(tmpdir(), "lf-migrate-")), name));
  migrateDatabase(sqlite, migrationsUpTo(count));
  return sqlite;
}

/** Account 1 and event 1, which the rows of each test refer to. */
const USER_AND_EVENT = `
  insert into users (id, email, first_name, last_name, password_hash) values (1, 'a@b.de', 'A', 'B', 'x');
  insert into events (id, title, description, date_from, time_from, starts_at, location) values (1, 'Lager', 'D', '2030-07-01', '10:00', 1893456000000, 'Plön');`;

describe("migrating a database in use", () => {
  it("0004 (rebuilds events, registrations and their history) keeps every row that refers to them", () => {
    const sqlite = databaseUpTo(4, "alt.db");
    sqlite.exec(`${USER_AND_EVENT}
      insert into event_owners (event_id, user_id) values (1, 1);
      insert into event_helpers (event_id, user_id, status) values (1, 1, 'accepted');
      insert into participants (id, user_id, first_name, last_name, street, city, birth_date) values (1, 1, 'Kim', 'B', 'Weg 1', 'Kiel', '2015-01-01');
      insert into registrations (id, event_id, participant_id, user_id, payment_method) values (1, 1, 1, 1, 'transfer');
      insert into registration_history (registration_id, action) values (1, 'created');
      insert into event_groups (id, event_id, name) values (1, 1, 'Füchse');
      insert into group_members (event_id, group_id, registration_id) values (1, 1, 1);
      insert into group_members (event_id, group_id, helper_user_id) values (1, 1, 1);
      insert into comments (participant_id, event_id, author_id, text) values (1, 1, 1, 'Allergie');
    `);
    migrateDatabase(sqlite);
    const count = (table: string) => (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    for (const table of ["events", "event_owners", "event_helpers", "registrations", "registration_history", "group_members", "comments"]) {
      expect(count(table), table).toBeGreaterThan(0);
    }
    expect(count("group_members")).toBe(2);
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    // What 0004 brought: the cancelled state, offers, the offer time.
    sqlite.exec(`update registrations set application_status = 'cancelled' where id = 1`);
    expect(sqlite.prepare(`select offer_hours as h from events where id = 1`).get()).toEqual({ h: 48 });
    sqlite.close();
  });

  it("0015 takes rejected and cancelled registrations out of their groups and keeps everyone else", () => {
    const sqlite = databaseUpTo(15, "gruppen.db");
    sqlite.exec(`${USER_AND_EVENT}
      insert into event_helpers (event_id, user_id, status) values (1, 1, 'accepted');
      insert into participants (id, user_id, first_name, last_name, street, city, birth_date) values
        (1, 1, 'Kim', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (2, 1, 'Lea', 'B', 'Weg 1', 'Kiel', '2015-01-01'),
        (3, 1, 'Max', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (4, 1, 'Nia', 'B', 'Weg 1', 'Kiel', '2015-01-01');
      insert into registrations (id, event_id, participant_id, user_id, payment_method, application_status) values
        (1, 1, 1, 1, 'transfer', 'accepted'), (2, 1, 2, 1, 'transfer', 'open'), (3, 1, 3, 1, 'transfer', 'rejected'), (4, 1, 4, 1, 'transfer', 'cancelled');
      insert into event_groups (id, event_id, name) values (1, 1, 'Füchse');
      insert into group_members (event_id, group_id, registration_id) values (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4);
      insert into group_members (event_id, group_id, helper_user_id) values (1, 1, 1);
    `);
    migrateDatabase(sqlite);
    const members = sqlite.prepare(`select registration_id as r, helper_user_id as h from group_members order by id`).all();
    expect(members).toEqual([{ r: 1, h: null }, { r: 2, h: null }, { r: null, h: 1 }]);
    sqlite.close();
  });

  it("0020 ends open offers held past their event's start at the start and leaves every other row", () => {
    const sqlite = databaseUpTo(20, "angebote.db");
    // Event 1 starts at 1893456000000, event 2 a day later; offers before, after and on a
    // cancelled registration; each row is capped by its own event's start.
    sqlite.exec(`${USER_AND_EVENT}
      insert into events (id, title, description, date_from, time_from, starts_at, location) values (2, 'Später', 'D', '2030-07-02', '10:00', 1893542400000, 'Plön');
      insert into participants (id, user_id, first_name, last_name, street, city, birth_date) values
        (1, 1, 'Kim', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (2, 1, 'Lea', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (3, 1, 'Max', 'B', 'Weg 1', 'Kiel', '2015-01-01'),
        (4, 1, 'Nia', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (5, 1, 'Ole', 'B', 'Weg 1', 'Kiel', '2015-01-01');
      insert into registrations (id, event_id, participant_id, user_id, payment_method, application_status, waiting_list_position, offer_expires_at) values
        (1, 1, 1, 1, 'transfer', 'open', 1, 1893459600000), (2, 1, 2, 1, 'transfer', 'open', 2, 1893452400000),
        (3, 1, 3, 1, 'transfer', 'open', 3, null), (4, 1, 4, 1, 'transfer', 'cancelled', 4, 1893459600000),
        (5, 2, 5, 1, 'transfer', 'open', 1, 1893459600000);
    `);
    migrateDatabase(sqlite);
    const offers = sqlite.prepare(`select id, offer_expires_at as until from registrations order by id`).all();
    expect(offers).toEqual([
      { id: 1, until: 1893456000000 },
      { id: 2, until: 1893452400000 },
      { id: 3, until: null },
      { id: 4, until: 1893459600000 },
      { id: 5, until: 1893459600000 },
    ]);
    sqlite.close();
  });

  it("0021 moves the waiting 'Zahlung eingegangen' mails to their registrations and leaves every other mail", () => {
    const sqlite = databaseUpTo(21, "zahlungen.db");
    // Kim's and Lea's mails wait; Max's went out; Nia's waits for a retry (tried once); Ole's
    // payment was revoked (the mail names him but he is unpaid); another mail to the same address.
    // Kim is paid at event 2 as well, of the same title, confirmed a year before (review: both
    // registrations took the one mail's mark). Pia's mail names her event's old title.
    sqlite.exec(`${USER_AND_EVENT}
      insert into events (id, title, description, date_from, time_from, starts_at, location) values
        (2, 'Lager', 'D', '2029-07-01', '10:00', 1861920000000, 'Plön'), (3, 'Neuer Name', 'D', '2030-07-01', '10:00', 1893456000000, 'Plön');
      insert into participants (id, user_id, first_name, last_name, street, city, birth_date) values
        (1, 1, 'Kim', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (2, 1, 'Lea', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (3, 1, 'Max', 'B', 'Weg 1', 'Kiel', '2015-01-01'),
        (4, 1, 'Nia', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (5, 1, 'Ole', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (6, 1, 'Pia', 'B', 'Weg 1', 'Kiel', '2015-01-01');
      insert into registrations (id, event_id, participant_id, user_id, payment_method, application_status, paid) values
        (1, 1, 1, 1, 'transfer', 'accepted', 1), (2, 1, 2, 1, 'transfer', 'open', 1), (3, 1, 3, 1, 'transfer', 'accepted', 1),
        (4, 1, 4, 1, 'transfer', 'accepted', 1), (5, 1, 5, 1, 'transfer', 'accepted', 0), (6, 2, 1, 1, 'transfer', 'accepted', 1),
        (7, 3, 6, 1, 'transfer', 'accepted', 1);
      insert into registration_history (registration_id, action, created_at) values
        (1, 'payment_confirmed', 1799999400000), (2, 'payment_confirmed', 1799999460000), (6, 'payment_confirmed', 1768463400000),
        (7, 'payment_confirmed', 1799999400000);
      insert into mail_outbox (id, recipients, subject, text, status, attempts, next_attempt_at) values
        (1, '["a@b.de"]', 'Zahlung eingegangen: Kim B – Lager', 'x', 'pending', 0, 1800000000000),
        (2, '["a@b.de"]', 'Zahlung eingegangen: Lea B – Lager', 'x', 'pending', 0, 1800000060000),
        (3, '["a@b.de"]', 'Zahlung eingegangen: Max B – Lager', 'x', 'sent', 1, 1700000000000),
        (4, '["a@b.de"]', 'Zahlung eingegangen: Nia B – Lager', 'x', 'pending', 1, 1800000000000),
        (5, '["a@b.de"]', 'Zahlung eingegangen: Ole B – Lager', 'x', 'pending', 0, 1800000000000),
        (6, '["a@b.de"]', 'Anmeldung bestätigt: Kim B – Lager', 'x', 'pending', 0, 1800000000000),
        (7, '["a@b.de"]', 'Zahlung eingegangen: Pia B – Alter Name', 'x', 'pending', 0, 1800000000000);
    `);
    migrateDatabase(sqlite);
    expect(sqlite.prepare(`select id, payment_mail_at as at from registrations order by id`).all()).toEqual([
      { id: 1, at: 1800000000000 },
      { id: 2, at: 1800000060000 },
      { id: 3, at: null },
      { id: 4, at: null },
      { id: 5, at: null },
      { id: 6, at: null },
      { id: 7, at: null },
    ]);
    expect(sqlite.prepare(`select id from mail_outbox order by id`).all()).toEqual([{ id: 3 }, { id: 4 }, { id: 5 }, { id: 6 }, { id: 7 }]);
    sqlite.close();
  });

  it("0022 gives open offers the end they hold as their own end, and no other row one", () => {
    const sqlite = databaseUpTo(22, "eigenes-ende.db");
    sqlite.exec(`${USER_AND_EVENT}
      insert into participants (id, user_id, first_name, last_name, street, city, birth_date) values
        (1, 1, 'Kim', 'B', 'Weg 1', 'Kiel', '2015-01-01'), (2, 1, 'Lea', 'B', 'Weg 1', 'Kiel', '2015-01-01');
      insert into registrations (id, event_id, participant_id, user_id, payment_method, application_status, waiting_list_position, offer_expires_at) values
        (1, 1, 1, 1, 'transfer', 'open', 1, 1893456000000), (2, 1, 2, 1, 'transfer', 'open', 2, null);
      -- Review: the 'offered' entry is written a moment after the offer's end was set, and the
      -- offer time may have changed since; an own end read from there lengthened the offer.
      insert into registration_history (registration_id, action, created_at) values (1, 'offered', ${1893456000000 - 48 * 3600_000 + 5});
      update events set offer_hours = 168 where id = 1;
    `);
    migrateDatabase(sqlite);
    expect(sqlite.prepare(`select id, offer_expires_at as until, offer_own_end as own from registrations order by id`).all()).toEqual([
      { id: 1, until: 1893456000000, own: 1893456000000 },
      { id: 2, until: null, own: null },
    ]);
    sqlite.close();
  });

  it("0016 drops the comments of events deleted before, keeps the others and deletes comments with their event from then on", () => {
    const sqlite = databaseUpTo(16, "kommentare.db");
    sqlite.exec(`${USER_AND_EVENT}
      insert into participants (id, user_id, first_name, last_name, street, city, birth_date) values (1, 1, 'Kim', 'B', 'Weg 1', 'Kiel', '2015-01-01');
      insert into comments (participant_id, event_id, author_id, text) values (1, 1, 1, 'Bleibt'), (1, null, 1, 'Waise');
    `);
    migrateDatabase(sqlite);
    expect(sqlite.prepare(`select text, event_id as e from comments`).all()).toEqual([{ text: "Bleibt", e: 1 }]);
    sqlite.exec(`delete from events where id = 1`);
    expect(sqlite.prepare(`select count(*) as n from comments`).get()).toEqual({ n: 0 });
    sqlite.close();
  });

  it("0017 dates the helper checks kept so far today, so none goes sooner than three months from now", () => {
    const sqlite = databaseUpTo(17, "nachweise.db");
    sqlite.exec(`${USER_AND_EVENT}
      update users set juleica_number = 'J-1', juleica_expires_on = '2030-01-01', phone = '0151 1' where id = 1;
      insert into users (id, email, first_name, last_name, password_hash, phone) values (2, 'c@d.de', 'C', 'D', 'x', '0151 2');
    `);
    migrateDatabase(sqlite);
    const today = sqlite.prepare(`select date('now', 'localtime') as d`).get() as { d: string };
    expect(sqlite.prepare(`select id, helper_checks_recorded_on as d from users order by id`).all()).toEqual([
      { id: 1, d: today.d },
      { id: 2, d: null },
    ]);
    sqlite.close();
  });

  it("a second process finds nothing left to do", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "lf-migrate-")), "zwei.db");
    const first = openDatabase(file);
    migrateDatabase(first.sqlite);
    const second = openDatabase(file);
    migrateDatabase(second.sqlite);
    const applied = (second.sqlite.prepare(`select count(*) as n from "__drizzle_migrations"`).get() as { n: number }).n;
    expect(applied).toBe((JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length);
    first.sqlite.close();
    second.sqlite.close();
  });
});
