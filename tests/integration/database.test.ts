import { eq, sql } from "drizzle-orm";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  eventGroups,
  eventHelpers,
  events,
  groupMembers,
  guardians,
  participants,
  registrations,
  users,
} from "../../db/schema";
import { berlinToInstant } from "~/lib/dates";
import { bookkeepingTransaction, db, rawSqlite, writeTransaction } from "~/services/db.server";
import { writeTransactionTogether } from "~/services/group-commit.server";
import { createUser } from "../support/fixtures";

/** Runs `work` and returns the database's own error text (drizzle wraps some errors). */
function failure(work: () => unknown) {
  try {
    work();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return `${String((error as Error).message)} ${cause instanceof Error ? cause.message : ""}`;
  }
  return "no error";
}

function insertEvent(title = "Sommerfreizeit") {
  return db
    .insert(events)
    .values({
      title,
      description: "Zwei Wochen Zeltlager am See.",
      dateFrom: "2027-07-10",
      timeFrom: "10:00",
      startsAt: berlinToInstant("2027-07-10", "10:00"),
      location: "Zeltplatz am See",
    })
    .returning()
    .get();
}

function insertParticipant(userId: number) {
  return db
    .insert(participants)
    .values({ userId, firstName: "Mia", lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate: "2015-05-01" })
    .returning()
    .get();
}

describe("database", () => {
  it("opens with the pragmas the app relies on", () => {
    const sqlite = rawSqlite();
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("synchronous", { simple: true })).toBe(2); // FULL
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  // Operations review: in a folder that already existed (the Docker image's /data, one made by
  // hand) the database and its WAL files were world-readable (0644): children's data.
  it("keeps the database file and its WAL files to the app's user, also in a folder that exists", async () => {
    const { mkdtempSync, statSync, writeFileSync, chmodSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { openDatabase } = await import("~/services/db.server");
    const dir = mkdtempSync(path.join(tmpdir(), "lf-rechte-"));
    chmodSync(dir, 0o755);
    const opened = openDatabase(path.join(dir, "neu.db"));
    opened.sqlite.exec("create table t (x); insert into t values (1)");
    for (const file of ["neu.db", "neu.db-wal", "neu.db-shm"]) expect([file, statSync(path.join(dir, file)).mode & 0o777]).toEqual([file, 0o600]);
    opened.sqlite.close();
    // One made readable before (an older version): closed to others at the next start.
    writeFileSync(path.join(dir, "alt.db"), "", { mode: 0o644 });
    chmodSync(path.join(dir, "alt.db"), 0o644);
    const old = openDatabase(path.join(dir, "alt.db"));
    expect(statSync(path.join(dir, "alt.db")).mode & 0o777).toBe(0o600);
    old.sqlite.close();
  });

  it("refuses a registration for an event that does not exist", async () => {
    const parent = await createUser();
    const child = insertParticipant(parent.id);
    expect(() =>
      db.insert(registrations).values({ eventId: 999_999, participantId: child.id, userId: parent.id, paymentMethod: "transfer" }).run(),
    ).toThrow(/FOREIGN KEY constraint failed/);
    expect(db.select().from(registrations).all()).toHaveLength(0);
  });

  it("refuses values outside the enumerations", async () => {
    const parent = await createUser();
    const event = insertEvent();
    const child = insertParticipant(parent.id);
    expect(failure(() => db.run(sql`update users set role = 'superuser' where id = ${parent.id}`))).toMatch(
      /CHECK constraint failed: users_role_check/,
    );
    expect(
      failure(() =>
        db.run(
          sql`insert into registrations (event_id, participant_id, user_id, payment_method, application_status) values (${event.id}, ${child.id}, ${parent.id}, 'bar', 'open')`,
        ),
      ),
    ).toMatch(/CHECK constraint failed: registrations_payment_method_check/);
    expect(
      failure(() =>
        db.run(
          sql`insert into registrations (event_id, participant_id, user_id, payment_method, application_status) values (${event.id}, ${child.id}, ${parent.id}, 'transfer', 'vielleicht')`,
        ),
      ),
    ).toMatch(/CHECK constraint failed: registrations_status_check/);
    expect(failure(() => db.run(sql`update participants set tshirt_size = 'XS' where id = ${child.id}`))).toMatch(
      /CHECK constraint failed: participants_tshirt_check/,
    );
    expect(failure(() => db.run(sql`update events set capacity = 0 where id = ${event.id}`))).toMatch(
      /CHECK constraint failed: events_capacity_check/,
    );
    expect(db.select().from(registrations).all()).toHaveLength(0);
  });

  it("keeps one account per e-mail address, stored in lower case", async () => {
    await createUser({ email: "eltern@example.org" });
    await expect(createUser({ email: "eltern@example.org" })).rejects.toThrow(/UNIQUE constraint failed/);
    expect(() =>
      db.insert(users).values({ email: "Gross@Example.org", firstName: "A", lastName: "B", passwordHash: "x" }).run(),
    ).toThrow(/CHECK constraint failed/);
  });

  it("registers a child only once per event", async () => {
    const parent = await createUser();
    const event = insertEvent();
    const child = insertParticipant(parent.id);
    const values = { eventId: event.id, participantId: child.id, userId: parent.id, paymentMethod: "transfer" as const };
    db.insert(registrations).values(values).run();
    expect(() => db.insert(registrations).values(values).run()).toThrow(/UNIQUE constraint failed/);
  });

  it("only puts people of an event into that event's groups, one group each", async () => {
    const parent = await createUser();
    const helper = await createUser();
    const camp = insertEvent("Zeltlager");
    const other = insertEvent("Skifreizeit");
    const child = insertParticipant(parent.id);
    const registration = db
      .insert(registrations)
      .values({ eventId: camp.id, participantId: child.id, userId: parent.id, paymentMethod: "transfer" })
      .returning()
      .get();
    db.insert(eventHelpers).values({ eventId: camp.id, userId: helper.id, status: "accepted" }).run();
    const foxes = db.insert(eventGroups).values({ eventId: camp.id, name: "Füchse" }).returning().get();
    const owls = db.insert(eventGroups).values({ eventId: camp.id, name: "Eulen" }).returning().get();
    const foreign = db.insert(eventGroups).values({ eventId: other.id, name: "Füchse" }).returning().get();

    db.insert(groupMembers).values({ eventId: camp.id, groupId: foxes.id, registrationId: registration.id }).run();
    db.insert(groupMembers).values({ eventId: camp.id, groupId: foxes.id, helperUserId: helper.id }).run();
    // A second group for the same child, a group of another event, or a helper who is not one:
    expect(() => db.insert(groupMembers).values({ eventId: camp.id, groupId: owls.id, registrationId: registration.id }).run()).toThrow(
      /UNIQUE constraint failed/,
    );
    const sibling = insertParticipant(parent.id);
    const second = db
      .insert(registrations)
      .values({ eventId: camp.id, participantId: sibling.id, userId: parent.id, paymentMethod: "transfer" })
      .returning()
      .get();
    expect(() => db.insert(groupMembers).values({ eventId: camp.id, groupId: foreign.id, registrationId: second.id }).run()).toThrow(
      /FOREIGN KEY constraint failed/,
    );
    expect(() => db.insert(groupMembers).values({ eventId: other.id, groupId: foreign.id, helperUserId: helper.id }).run()).toThrow(
      /FOREIGN KEY constraint failed/,
    );
    expect(() => db.insert(groupMembers).values({ eventId: camp.id, groupId: owls.id }).run()).toThrow(/CHECK constraint failed/);

    // Deleting the event removes its groups and memberships with it.
    db.delete(events).where(eq(events.id, camp.id)).run();
    expect(db.select().from(groupMembers).all()).toHaveLength(0);
    expect(db.select().from(eventGroups).where(eq(eventGroups.eventId, camp.id)).all()).toHaveLength(0);
  });

  it("removes an account's family data with the account", async () => {
    const parent = await createUser();
    const event = insertEvent();
    const child = insertParticipant(parent.id);
    db.insert(guardians).values({ userId: parent.id, firstName: "Eva", lastName: "Muster" }).run();
    db.insert(registrations).values({ eventId: event.id, participantId: child.id, userId: parent.id, paymentMethod: "transfer" }).run();
    db.delete(users).where(eq(users.id, parent.id)).run();
    expect(db.select().from(participants).where(eq(participants.userId, parent.id)).all()).toHaveLength(0);
    expect(db.select().from(guardians).where(eq(guardians.userId, parent.id)).all()).toHaveLength(0);
    expect(db.select().from(registrations).where(eq(registrations.eventId, event.id)).all()).toHaveLength(0);
  });

  it("rolls a write transaction back completely when it fails", async () => {
    const before = db.select().from(events).all().length;
    expect(() =>
      writeTransaction((tx) => {
        tx.insert(events)
          .values({ title: "Halb", description: "-", dateFrom: "2027-01-01", timeFrom: "10:00", startsAt: new Date(), location: "X" })
          .run();
        tx.insert(registrations).values({ eventId: 999_999, participantId: 1, userId: 1, paymentMethod: "transfer" }).run();
      }),
    ).toThrow();
    expect(db.select().from(events).all()).toHaveLength(before);
  });

  it("refuses an async callback, which would commit at its first await", () => {
    expect(() => writeTransaction(async () => 1)).toThrow(/synchronous/);
  });
});

describe("write lock", () => {
  /** Another process takes the write lock, says so, and commits after `holdMs`, telling when. */
  async function holdLockElsewhere(holdMs: number) {
    const { spawn } = await import("node:child_process");
    const code = `
      const db = new (require("better-sqlite3"))(process.argv[1]);
      db.exec("BEGIN IMMEDIATE");
      process.stdout.write("locked\\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[2]));
      db.exec("COMMIT");
      process.stdout.write("free " + (performance.timeOrigin + performance.now()) + "\\n");
      db.close();`;
    const child = spawn(process.execPath, ["-e", code, rawSqlite().name, String(holdMs)], { stdio: ["ignore", "pipe", "inherit"] });
    let said = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        said += String(chunk);
        if (said.includes("locked")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`lock holder stopped (${code})`)));
    });
    const freedAt = new Promise<number>((resolve) => child.once("exit", () => resolve(Number(/free (\S+)/.exec(said)?.[1]))));
    return { freedAt };
  }

  it("is taken moments after another process lets go, not at the busy handler's next try", async () => {
    // SQLite's busy handler, which single statements and readers still use, took the lock 3 to 5 ms
    // after another process let go, its event loop stopped all along; asked every fraction of a
    // millisecond, it is taken at once. The time is taken as the transaction begins (not after
    // its commit), and the median of five tries is compared.
    const late: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const { freedAt } = await holdLockElsewhere(30);
      let takenAt = 0;
      const id = writeTransaction((tx) => {
        takenAt = performance.timeOrigin + performance.now();
        return tx.insert(users).values({ email: `w${attempt}@example.org`, firstName: "W", lastName: "L", passwordHash: "x" }).returning({ id: users.id }).get().id;
      });
      late.push(takenAt - (await freedAt));
      expect(db.select({ id: users.id }).from(users).where(eq(users.id, id)).get()).toEqual({ id });
    }
    expect([...late].sort((a, b) => a - b)[2]).toBeLessThan(2.5);
    expect(rawSqlite().pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("rolls back everything of a transaction that throws, and nests as a savepoint", async () => {
    const parent = await createUser();
    expect(() =>
      writeTransaction((tx) => {
        tx.update(users).set({ firstName: "Geändert" }).where(eq(users.id, parent.id)).run();
        writeTransaction((inner) => inner.update(users).set({ lastName: "Innen" }).where(eq(users.id, parent.id)).run());
        throw new Error("nein");
      }),
    ).toThrow("nein");
    expect(db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, parent.id)).get()).toEqual({
      firstName: parent.firstName,
      lastName: parent.lastName,
    });
    expect(rawSqlite().inTransaction).toBe(false);
    writeTransaction((tx) => {
      tx.update(users).set({ firstName: "Außen" }).where(eq(users.id, parent.id)).run();
      expect(() => writeTransaction(() => { throw new Error("innen"); })).toThrow("innen");
    });
    expect(db.select({ firstName: users.firstName }).from(users).where(eq(users.id, parent.id)).get()?.firstName).toBe("Außen");
  });
});

describe("writes committed together", () => {
  it("run each as a whole in the order asked, see the ones before, and settle after one commit", async () => {
    const people = { A: await createUser(), B: await createUser(), C: await createUser() };
    const ids = Object.values(people).map((p) => p.id);
    const done = () => db.select({ n: sql<number>`count(*)` }).from(users).where(sql`${users.lastName} like '%-ganz' and ${users.id} in ${ids}`).get()!.n;
    const seen: number[] = [];
    const results = await Promise.allSettled(
      (["A", "B", "C"] as const).map((name) =>
        writeTransactionTogether((tx) => {
          tx.update(users).set({ lastName: `${name}-teil` }).where(eq(users.id, people[name].id)).run();
          seen.push(done());
          if (name === "B") throw new Error("B geht nicht");
          tx.update(users).set({ lastName: `${name}-ganz` }).where(eq(users.id, people[name].id)).run();
          return name;
        }),
      ),
    );
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual(["A", "B geht nicht", "C"]);
    // B saw A's write, C saw A's; B's own writes were undone, 'B-teil' included.
    expect(seen).toEqual([0, 1, 1]);
    const lastNames = db.select({ lastName: users.lastName }).from(users).where(sql`${users.id} in ${ids}`).orderBy(users.id).all();
    expect(lastNames.map((u) => u.lastName)).toEqual(["A-ganz", people.B.lastName, "C-ganz"]);
    expect(rawSqlite().inTransaction).toBe(false);
  });

  it("write what was asked in one turn in one transaction, visible to others only when all are done", async () => {
    const parent = await createUser();
    const other = new Database(rawSqlite().name, { readonly: true });
    const othersSee = () => other.prepare("SELECT first_name FROM users WHERE id = ?").pluck().get(parent.id);
    const seenByOthers: unknown[] = [];
    let settled = 0;
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          writeTransactionTogether((tx) => {
            tx.update(users).set({ firstName: `Name${i}` }).where(eq(users.id, parent.id)).run();
            seenByOthers.push(othersSee());
          }).then(() => {
            settled++;
            // Nothing is reported before the commit that makes it durable.
            expect(othersSee()).toBe("Name19");
          }),
        ),
      );
      expect(settled).toBe(20);
      // While the 20 ran, another connection saw none of them: one transaction, one commit.
      expect(new Set(seenByOthers)).toEqual(new Set([parent.firstName]));
    } finally {
      other.close();
    }
  });

  it("gather the writes asked for a few turns of the event loop apart into the same commit", async () => {
    const parent = await createUser();
    const other = new Database(rawSqlite().name, { readonly: true });
    try {
      const first = writeTransactionTogether((tx) => tx.update(users).set({ firstName: "Erste" }).where(eq(users.id, parent.id)).run());
      await new Promise((resolve) => setImmediate(resolve)); // the next request, a turn later
      let seenByOthers: unknown;
      const second = writeTransactionTogether((tx) => {
        tx.update(users).set({ lastName: "Zweite" }).where(eq(users.id, parent.id)).run();
        seenByOthers = other.prepare("SELECT first_name FROM users WHERE id = ?").pluck().get(parent.id);
      });
      await Promise.all([first, second]);
      expect(seenByOthers).toBe(parent.firstName); // the first not yet committed: one commit for both
      expect(other.prepare("SELECT first_name || ' ' || last_name FROM users WHERE id = ?").pluck().get(parent.id)).toBe("Erste Zweite");
    } finally {
      other.close();
    }
  });

  it("wait for another process's write lock without stopping this one, and take in the writes asked for meanwhile", async () => {
    const parent = await createUser();
    const other = new Database(rawSqlite().name);
    try {
      other.exec("BEGIN IMMEDIATE"); // another worker's commit under way
      const first = writeTransactionTogether((tx) => tx.update(users).set({ firstName: "Wartend" }).where(eq(users.id, parent.id)).run());
      // The event loop goes on: timers fire and requests are answered while the group waits.
      await new Promise((resolve) => setTimeout(resolve, 40));
      const second = writeTransactionTogether((tx) => tx.update(users).set({ lastName: "Dazu" }).where(eq(users.id, parent.id)).run());
      let settled = false;
      void Promise.all([first, second]).then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(settled).toBe(false);
      expect(other.prepare("SELECT first_name FROM users WHERE id = ?").pluck().get(parent.id)).toBe(parent.firstName);
      other.exec("COMMIT");
      const seen: string[] = [];
      const watcher = new Database(rawSqlite().name, { readonly: true });
      const look = setInterval(() => seen.push(String(watcher.prepare("SELECT first_name || ' ' || last_name FROM users WHERE id = ?").pluck().get(parent.id))), 0);
      await Promise.all([first, second]);
      clearInterval(look);
      watcher.close();
      expect(settled).toBe(true);
      // One commit for both: never the first without the second.
      expect(seen.filter((name) => name.startsWith("Wartend") && !name.endsWith("Dazu"))).toEqual([]);
      expect(other.prepare("SELECT first_name || ' ' || last_name FROM users WHERE id = ?").pluck().get(parent.id)).toBe("Wartend Dazu");
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
  });

  it("refuse all when one of them ends the whole transaction (a full disk), and run none after it", async () => {
    const people = [await createUser(), await createUser(), await createUser()];
    let thirdRan = false;
    const asked = [
      writeTransactionTogether((tx) => tx.update(users).set({ lastName: "Eins" }).where(eq(users.id, people[0].id)).run()),
      writeTransactionTogether((tx) => {
        tx.update(users).set({ lastName: "Zwei" }).where(eq(users.id, people[1].id)).run();
        // What SQLite does on SQLITE_FULL or an I/O error: the whole transaction is rolled back.
        rawSqlite().exec("ROLLBACK");
        throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      }),
      writeTransactionTogether((tx) => {
        thirdRan = true;
        tx.update(users).set({ lastName: "Drei" }).where(eq(users.id, people[2].id)).run();
      }),
    ];
    const outcomes = await Promise.allSettled(asked);
    expect(outcomes.map((o) => (o.status === "rejected" ? (o.reason as Error).message : "ok"))).toEqual(Array(3).fill("database or disk is full"));
    expect(thirdRan).toBe(false);
    const lastNames = db.select({ lastName: users.lastName }).from(users).where(sql`${users.id} in ${people.map((p) => p.id)}`).orderBy(users.id).all();
    expect(lastNames.map((u) => u.lastName)).toEqual(people.map((p) => p.lastName));
    expect(rawSqlite().inTransaction).toBe(false);
  });

  it("are not asked for inside another transaction", () => {
    expect(() => writeTransaction(() => writeTransactionTogether(() => 1))).toThrow(/not inside another transaction/);
  });

  it("refuse all when the write lock cannot be had, and write nothing", async () => {
    const parent = await createUser();
    const holder = new Database(rawSqlite().name);
    holder.exec("BEGIN IMMEDIATE");
    const timeout = rawSqlite().pragma("busy_timeout", { simple: true });
    try {
      // The lock is asked for LOCK_WAIT_MS (5 s) before the writes are refused.
      const started = performance.now();
      const asked = writeTransactionTogether((tx) => tx.update(users).set({ firstName: "Nie" }).where(eq(users.id, parent.id)).run());
      setTimeout(() => holder.exec("ROLLBACK"), 6_000).unref();
      await expect(asked).rejects.toThrow(/locked|busy/i);
      expect(performance.now() - started).toBeGreaterThan(4_900);
    } finally {
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
    }
    expect(rawSqlite().pragma("busy_timeout", { simple: true })).toBe(timeout);
    expect(db.select({ firstName: users.firstName }).from(users).where(eq(users.id, parent.id)).get()?.firstName).toBe(parent.firstName);
  }, 15_000);
});

describe("bookkeeping transactions", () => {
  it("commit at the safety level NORMAL (no fsync of their own), and leave the connection's commits FULL", async () => {
    const parent = await createUser();
    const level = () => rawSqlite().pragma("synchronous", { simple: true });
    const during: unknown[] = [];
    bookkeepingTransaction((tx) => {
      during.push(level());
      tx.update(users).set({ firstName: "Gebucht" }).where(eq(users.id, parent.id)).run();
    });
    writeTransaction(() => during.push(level()));
    expect(during).toEqual([1, 2]); // NORMAL, FULL
    expect(level()).toBe(2);
    expect(db.select({ firstName: users.firstName }).from(users).where(eq(users.id, parent.id)).get()?.firstName).toBe("Gebucht");
    // A refused one is undone and leaves FULL behind too.
    expect(() =>
      bookkeepingTransaction((tx) => {
        tx.update(users).set({ firstName: "Nie" }).where(eq(users.id, parent.id)).run();
        throw new Error("nein");
      }),
    ).toThrow("nein");
    expect(level()).toBe(2);
    expect(rawSqlite().inTransaction).toBe(false);
    expect(db.select({ firstName: users.firstName }).from(users).where(eq(users.id, parent.id)).get()?.firstName).toBe("Gebucht");
  });
});
