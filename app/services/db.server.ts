// The one SQLite connection of the process. Pragmas are set on every open: better-sqlite3 keeps
// synchronous=NORMAL on a reopened WAL file unless told otherwise.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "../../db/schema";
import { settings } from "./env.server";

export type Db = BetterSQLite3Database<typeof schema>;
/** The handle a write transaction hands to its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

export const MIGRATIONS_DIR = path.resolve("db/migrations");

export function openDatabase(file: string) {
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return { sqlite, db: drizzle(sqlite, { schema }) };
}

export function migrateDatabase(db: Db) {
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}

const globalForDb = globalThis as unknown as { __lagerfeuerDb?: ReturnType<typeof openDatabase> };

function connection() {
  if (!globalForDb.__lagerfeuerDb) {
    const opened = openDatabase(settings().databasePath);
    migrateDatabase(opened.db);
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

export function rawSqlite() {
  return connection().sqlite;
}

export function closeDatabase() {
  globalForDb.__lagerfeuerDb?.sqlite.close();
  globalForDb.__lagerfeuerDb = undefined;
}

/**
 * Runs `work` in a write transaction that takes the write lock at BEGIN (IMMEDIATE), so that two
 * writers never deadlock on a lock upgrade and a read-then-write (capacity checks) sees no
 * change slipping in between. The callback must be synchronous: with better-sqlite3 an async
 * callback would commit at its first await.
 */
export function writeTransaction<T>(work: (tx: Tx) => T, database: Db = db): T {
  return database.transaction((tx) => {
    const result = work(tx);
    if (result instanceof Promise) {
      throw new Error("writeTransaction: the callback must be synchronous");
    }
    return result;
  }, { behavior: "immediate" });
}

/** Throws unless the database answers a query. */
export function checkDatabase() {
  const row = rawSqlite().prepare("select 1 as ok").get() as { ok: number } | undefined;
  if (row?.ok !== 1) throw new Error("database did not answer");
}
