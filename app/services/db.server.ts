// The one SQLite connection of the process. Pragmas are set on every open: better-sqlite3 keeps
// synchronous=NORMAL on a reopened WAL file unless told otherwise.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "drizzle-orm";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import * as schema from "../../db/schema";
import { settings } from "./env.server";

export type Db = BetterSQLite3Database<typeof schema>;
/** The handle a write transaction hands to its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

export const MIGRATIONS_DIR = path.resolve("db/migrations");

export function openDatabase(file: string) {
  if (file !== ":memory:") {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // the app user's alone
    keepPrivate(file);
  }
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  cacheStatements(sqlite);
  return { sqlite, db: drizzle(sqlite, { schema }) };
}

/**
 * Children's data: the database is the app user's alone (0600), also in a folder that existed
 * before (the Docker image's /data), where a new file got the umask's 0644. SQLite gives its WAL
 * and shared-memory files the database file's mode; those of an older start are closed too.
 */
function keepPrivate(file: string) {
  try {
    closeSync(openSync(file, "wx", 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const part of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (statSync(part).mode & 0o077) chmodSync(part, 0o600);
    } catch {
      // Not there (yet), or not ours to change: SQLite says so when it opens the file.
    }
  }
}

const STATEMENT_CACHE_SIZE = 400;

/**
 * drizzle prepares every query anew, and SQLite compiles each one again (a sixth of a page's
 * query time). The connection keeps its compiled statements by SQL text instead, the most recent
 * STATEMENT_CACHE_SIZE of them. A statement is handed out in its default mode (drizzle switches
 * readers to raw rows), and one still running an iteration is never handed out twice.
 */
function cacheStatements(sqlite: Database.Database) {
  const compile = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = function prepare(source: string) {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      if (cached.reader) cached.raw(false).pluck(false).expand(false);
      return cached;
    }
    const statement = compile(source);
    if (!cached) {
      cache.set(source, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    return statement;
  } as typeof sqlite.prepare;
}

/**
 * Applies the pending migrations of db/migrations in one transaction, with foreign keys off
 * around it (SQLite's documented way to change a table: drizzle-kit rebuilds a table to change
 * a CHECK, and with foreign keys on, dropping the old table would cascade-delete every row that
 * refers to it; inside a transaction the migration's own PRAGMA is ignored). The foreign keys are
 * checked before the commit. Same bookkeeping table as drizzle's migrator.
 */
export function migrateDatabase(sqlite: Database.Database, migrationsFolder = MIGRATIONS_DIR) {
  const migrations = readMigrationFiles({ migrationsFolder });
  sqlite.exec(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
  const lastApplied = () =>
    Number((sqlite.prepare(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`).get() as { created_at?: number } | undefined)?.created_at ?? -1);
  if (!migrations.some((m) => m.folderMillis > lastApplied())) return;
  sqlite.exec("PRAGMA foreign_keys = OFF"); // a fresh statement: SQLite applies a pragma as it compiles it
  try {
    sqlite
      .transaction(() => {
        const since = lastApplied(); // again under the write lock: another process may have migrated
        for (const migration of migrations.filter((m) => m.folderMillis > since)) {
          for (const statement of migration.sql) if (statement.trim()) sqlite.exec(statement);
          sqlite.prepare(`INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)`).run(migration.hash, migration.folderMillis);
        }
        const broken = sqlite.pragma("foreign_key_check") as unknown[];
        if (broken.length) throw new Error(`Migration verletzt ${broken.length} Fremdschlüssel; nichts wurde geändert.`);
      })
      .immediate();
  } finally {
    sqlite.exec("PRAGMA foreign_keys = ON");
  }
}

const globalForDb = globalThis as unknown as { __lagerfeuerDb?: ReturnType<typeof openDatabase> };

function connection() {
  if (!globalForDb.__lagerfeuerDb) {
    const opened = openDatabase(settings().databasePath);
    migrateDatabase(opened.sqlite);
    globalForDb.__lagerfeuerDb = opened;
  }
  return globalForDb.__lagerfeuerDb;
}

/** The drizzle database of this process, opened and migrated on first use. */
export const db: Db = new Proxy({} as Db, {
  get(_target, property) {
    const real = connection().db as unknown as Record<PropertyKey, unknown>;
    const value = real[property];
    return typeof value === "function" ? (value as Function).bind(real) : value;
  },
});

/**
 * A query on a hot path (every page, the enrolment), built by drizzle once per connection
 * (drizzle's `.prepare()` with `sql.placeholder` values) instead of once per call: building
 * costs more than running.
 */
export function preparedQuery<T>(build: (database: Db) => T): () => T {
  let last: { sqlite: Database.Database; query: T } | undefined;
  return () => {
    const { sqlite, db: database } = connection();
    if (last?.sqlite !== sqlite) last = { sqlite, query: build(database) };
    return last.query;
  };
}

/**
 * A placeholder of a prepared write whose value is bound exactly as given, as SQLite stores it
 * (a column's mapping would turn a null boolean into 0; decision 0017).
 */
export const bound = (name: string) => sql`${sql.placeholder(name)}`;

export function rawSqlite() {
  return connection().sqlite;
}

export function closeDatabase() {
  globalForDb.__lagerfeuerDb?.sqlite.close();
  globalForDb.__lagerfeuerDb = undefined;
}

/** How long a writer waits for the write lock before it gives up (as busy_timeout for readers). */
export const LOCK_WAIT_MS = 5_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const lockStatements = new WeakMap<Database.Database, Record<"begin" | "commit" | "rollback", Database.Statement>>();

/** A setting changed with a fresh statement each time: SQLite applies a pragma as it compiles it. */
const setPragma = (sqlite: Database.Database, setting: string) => sqlite.exec(`PRAGMA ${setting}`);

export function statementsOf(sqlite: Database.Database) {
  let s = lockStatements.get(sqlite);
  if (!s) {
    s = {
      begin: sqlite.prepare("BEGIN IMMEDIATE"),
      commit: sqlite.prepare("COMMIT"),
      rollback: sqlite.prepare("ROLLBACK"),
    };
    lockStatements.set(sqlite, s);
  }
  return s;
}

/**
 * BEGIN IMMEDIATE once, without waiting: true when this connection now holds the write lock,
 * false while another process holds it.
 */
export function tryWriteLock(sqlite: Database.Database): boolean {
  setPragma(sqlite, "busy_timeout = 0");
  try {
    statementsOf(sqlite).begin.run();
    return true;
  } catch (error) {
    if (String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY")) return false;
    throw error;
  } finally {
    setPragma(sqlite, `busy_timeout = ${LOCK_WAIT_MS}`);
  }
}

/** The error of a write that waited LOCK_WAIT_MS for the write lock in vain (as SQLite's own). */
export function lockTimeout() {
  return Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
}

/**
 * BEGIN IMMEDIATE, asking again every fraction of a millisecond while another process holds the
 * write lock. SQLite's busy handler took it 3–5 ms after the other let go, with the event loop
 * stopped all along (docs/decisions/0017-enrolment-burst.md).
 */
function takeWriteLock(sqlite: Database.Database) {
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let pause = 0.05; !tryWriteLock(sqlite); pause = Math.min(pause * 2, 1)) {
    if (performance.now() > deadline) throw lockTimeout();
    Atomics.wait(sleeper, 0, 0, pause);
  }
}

/**
 * Runs `work` in a write transaction that takes the write lock at BEGIN (IMMEDIATE), so that two
 * writers never deadlock on a lock upgrade and a read-then-write (capacity checks) sees no
 * change slipping in between. The callback must be synchronous: with better-sqlite3 an async
 * callback would commit at its first await. Inside another transaction it is a savepoint.
 */
export function writeTransaction<T>(work: (tx: Tx) => T, database: Db = db): T {
  return inWriteTransaction(work, database, true);
}

/**
 * A write transaction of bookkeeping a power cut may take back (the outbox's "sent" and "claimed"
 * marks): committed without its own fsync (synchronous = NORMAL for this commit), so it holds the
 * write lock a few microseconds rather than about a millisecond while enrolments wait for it. It
 * becomes durable with the next ordinary commit or checkpoint; a process crash loses nothing,
 * only a power cut can, and then a mail goes out once more, as after a crash between sending and
 * marking. Never for what a person was told is saved.
 */
export function bookkeepingTransaction<T>(work: (tx: Tx) => T, database: Db = db): T {
  return inWriteTransaction(work, database, false);
}

function inWriteTransaction<T>(work: (tx: Tx) => T, database: Db, durable: boolean): T {
  const sqlite = clientOf(database);
  if (sqlite.inTransaction) return runNested(work, database);
  const s = statementsOf(sqlite);
  // The safety level can be changed only outside a transaction.
  if (!durable) setPragma(sqlite, "synchronous = NORMAL");
  try {
    takeWriteLock(sqlite);
    try {
      const result = runNested(work, database);
      s.commit.run();
      return result;
    } catch (error) {
      if (sqlite.inTransaction) s.rollback.run();
      throw error;
    }
  } finally {
    if (!durable) setPragma(sqlite, "synchronous = FULL");
  }
}

export const clientOf = (database: Db) => (database as Db & { $client: Database.Database }).$client;

/** `work` as drizzle's transaction inside ours (a savepoint: a throw undoes its writes alone). */
export function runNested<T>(work: (tx: Tx) => T, database: Db): T {
  return database.transaction((tx) => {
    const result = work(tx);
    if (result instanceof Promise) {
      throw new Error("writeTransaction: the callback must be synchronous");
    }
    return result;
  });
}

/** Throws unless the database answers a query. */
export function checkDatabase() {
  const row = rawSqlite().prepare("select 1 as ok").get() as { ok: number } | undefined;
  if (row?.ok !== 1) throw new Error("database did not answer");
}
