// Migration 0003 keeps every registration and copies today's child values onto it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrateDatabase } from "~/services/db.server";

const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before migration 0003. */
function migrationsUpTo(tag: string) {
  const folder = path.join(dir, `before-${tag}`);
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

it("gives existing registrations their child's answers, an enrolment with a reference and the price", () => {
  const sqlite = new Database(path.join(dir, "old.db"));
  sqlite.pragma("foreign_keys = ON");
  migrateDatabase(sqlite, migrationsUpTo("0002_device-marks"));
  const insert = (sql: string, ...values: unknown[]) => Number(sqlite.prepare(sql).run(...values).lastInsertRowid);
  const user = insert("insert into users (email, first_name, last_name, password_hash) values ('a@example.org', 'Eva', 'Muster', 'x')");
  const event = insert(
    "insert into events (title, description, date_from, time_from, starts_at, location, price_cents) values ('Zeltlager', 'See', '2030-07-01', '10:00', 0, 'Plön', 24900)",
  );
  const mia = insert(
    "insert into participants (user_id, first_name, last_name, street, city, birth_date, tshirt_size, swim_badge, special_needs, name_of_insured, birthdate_of_insured) values (?, 'Mia', 'Muster', 'Weg 1', 'Kiel', '2015-01-01', 'M', 'Bronze', 'Nuss', 'Eva Muster', '1980-02-02')",
    user,
  );
  const ben = insert("insert into participants (user_id, first_name, last_name, street, city, birth_date) values (?, 'Ben', 'Muster', 'Weg 1', 'Kiel', '2016-01-01')", user);
  const first = insert(
    "insert into registrations (event_id, participant_id, user_id, payment_method, submission_key, allowed_to_swim) values (?, ?, ?, 'transfer', 'key-aaaaaaaaaaaaaaaa', 1)",
    event,
    mia,
    user,
  );
  insert("insert into registrations (event_id, participant_id, user_id, payment_method, submission_key, waiting_list_position) values (?, ?, ?, 'transfer', 'key-aaaaaaaaaaaaaaaa', 1)", event, ben, user);
  insert("insert into registration_history (registration_id, action) values (?, 'created')", first);

  // The app's runner: later migrations rebuild tables, which must keep every row.
  migrateDatabase(sqlite);

  const rows = sqlite.prepare("select * from registrations order by id").all() as Record<string, unknown>[];
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({ tshirt_size: "M", swim_badge: "Bronze", special_needs: "Nuss", name_of_insured: "Eva Muster", birthdate_of_insured: "1980-02-02", amount_cents: 24900 });
  expect(rows[1]).toMatchObject({ tshirt_size: null, special_needs: "", amount_cents: null });
  expect(rows[0].enrolment_id).toBe(rows[1].enrolment_id);
  const enrolments = sqlite.prepare("select * from enrolments").all() as Record<string, unknown>[];
  expect(enrolments).toEqual([expect.objectContaining({ reference: `LF-${event}-${first}`, payment_method: "transfer", submission_key: "key-aaaaaaaaaaaaaaaa" })]);
  expect(sqlite.prepare("select count(*) as n from registration_history").get()).toEqual({ n: 1 });
  expect(sqlite.prepare("select allowed_to_swim from participants where id = ?").get(mia)).toEqual({ allowed_to_swim: 1 });
  expect(sqlite.prepare("select sibling_discount_cents from events").get()).toEqual({ sibling_discount_cents: 0 });
  sqlite.close();
});

it("marks the registrations placed after their enrolment (history) as asked for on their own (migration 0019)", () => {
  const sqlite = new Database(path.join(dir, "asked.db"));
  sqlite.pragma("foreign_keys = ON");
  migrateDatabase(sqlite, migrationsUpTo("0018_parked-forms"));
  const insert = (sql: string, ...values: unknown[]) => Number(sqlite.prepare(sql).run(...values).lastInsertRowid);
  const user = insert("insert into users (email, first_name, last_name, password_hash) values ('a@example.org', 'Eva', 'Muster', 'x')");
  const event = insert("insert into events (title, description, date_from, time_from, starts_at, location, price_cents) values ('Zeltlager', 'See', '2030-07-01', '10:00', 0, 'Plön', 24900)");
  const ids = ["Anna", "Ben", "Clara", "Dora", "Emil", "Frida"].map((name) => {
    const child = insert("insert into participants (user_id, first_name, last_name, street, city, birth_date) values (?, ?, 'Muster', 'Weg 1', 'Kiel', '2015-01-01')", user, name);
    return insert("insert into registrations (event_id, participant_id, user_id, payment_method) values (?, ?, ?, 'transfer')", event, child, user);
  });
  const history = ["created", "moved_from_waiting_list", "offer_accepted", "rejection_revoked"];
  ids.slice(0, 4).forEach((id, i) => insert("insert into registration_history (registration_id, action) values (?, ?)", id, history[i]));
  // A payment taken back: asked for alone by mail when its thank-you had gone out, ten minutes
  // after the confirmation (Frida); within them the mail was withheld and nothing asked (Emil).
  const at = (minutes: number) => Date.UTC(2026, 10, 1, 12, minutes);
  const entry = (id: number, action: string, minutes: number) => insert("insert into registration_history (registration_id, action, created_at) values (?, ?, ?)", id, action, at(minutes));
  entry(ids[4], "payment_confirmed", 0);
  entry(ids[4], "payment_revoked", 4);
  entry(ids[5], "payment_confirmed", 0);
  entry(ids[5], "payment_revoked", 25);
  migrateDatabase(sqlite);
  const marked = sqlite.prepare("select amount_asked_alone as alone from registrations order by id").all();
  expect(marked).toEqual([0, 1, 1, 1, 0, 1].map((alone) => ({ alone })));
  sqlite.close();
});
