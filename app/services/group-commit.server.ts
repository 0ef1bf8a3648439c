// Writes committed together (group commit), for the enrolment: many parents' writes of the same
// moment share one transaction and one fsync (docs/decisions/0017-enrolment-burst.md).
import type Database from "better-sqlite3";
import { clientOf, db, type Db, LOCK_WAIT_MS, lockTimeout, runNested, statementsOf, tryWriteLock, type Tx } from "./db.server";

type Waiting = { work: (tx: Tx) => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
const waitingWrites = new Map<Database.Database, Waiting[]>();

/** How long writes asked for together wait for others to join them (group commit). */
const GROUP_COMMIT_MS = 5;
/** How often a group asks again for the write lock while another process holds it. */
const LOCK_RETRY_MS = 1;

/**
 * A write transaction committed together with the others asked for within GROUP_COMMIT_MS (group
 * commit): each runs as a savepoint of one transaction, so each is whole or nothing and sees the
 * ones before it (places are counted under one lock), and one commit, one fsync, makes all of
 * them durable. The promise settles after that commit: an answer never reports a write a power
 * cut could still take back. When 500 parents enrol at once, 500 fsyncs of about a millisecond
 * each, one after another under the write lock, were much of the wait. The window: requests reach
 * their write one turn of the event loop after another, so a commit at the end of the turn wrote
 * one enrolment each time; five milliseconds gather two to seven in a burst and cost a single
 * enrolment nothing a person notices. (Committing a lone write at once and waiting only when
 * writes follow a commit closely made a burst alternate between one and several per commit.)
 *
 * While another process holds the write lock, the group waits without stopping the event loop:
 * it asks again every LOCK_RETRY_MS, the process answers other requests meanwhile, and writes
 * asked for in the meantime join the group (at most LOCK_WAIT_MS, then all are refused). With two
 * workers, each had spent a sixth of a burst asleep waiting for the other's commit.
 */
export function writeTransactionTogether<T>(work: (tx: Tx) => T, database: Db = db): Promise<T> {
  const sqlite = clientOf(database);
  if (sqlite.inTransaction) throw new Error("writeTransactionTogether: not inside another transaction");
  let waiting = waitingWrites.get(sqlite);
  if (!waiting) {
    waitingWrites.set(sqlite, (waiting = []));
    setTimeout(() => commitTogether(sqlite, database, performance.now()), GROUP_COMMIT_MS);
  }
  return new Promise<T>((resolve, reject) => waiting.push({ work, resolve: resolve as (value: unknown) => void, reject }));
}

function commitTogether(sqlite: Database.Database, database: Db, since: number) {
  let locked: boolean;
  try {
    locked = tryWriteLock(sqlite);
    if (!locked && performance.now() - since > LOCK_WAIT_MS) throw lockTimeout();
  } catch (error) {
    refuse(sqlite, error);
    return;
  }
  if (!locked) {
    setTimeout(() => commitTogether(sqlite, database, since), LOCK_RETRY_MS);
    return;
  }
  const waiting = waitingWrites.get(sqlite) ?? [];
  waitingWrites.delete(sqlite);
  const outcomes: ({ value: unknown } | { error: unknown })[] = [];
  const s = statementsOf(sqlite);
  try {
    for (const { work } of waiting) {
      try {
        outcomes.push({ value: runNested(work, database) });
      } catch (error) {
        // A full disk or an I/O error ends the whole transaction, not just the savepoint: the
        // ones before are gone too, and the ones after must not run on their own.
        if (!sqlite.inTransaction) throw error;
        outcomes.push({ error });
      }
    }
    s.commit.run();
  } catch (error) {
    if (sqlite.inTransaction) s.rollback.run();
    for (const { reject } of waiting) reject(error);
    return;
  }
  waiting.forEach(({ resolve, reject }, i) => {
    const outcome = outcomes[i];
    if ("error" in outcome) reject(outcome.error);
    else resolve(outcome.value);
  });
}

/** Every write of the group waiting for the lock is refused with `error`. */
function refuse(sqlite: Database.Database, error: unknown) {
  const waiting = waitingWrites.get(sqlite) ?? [];
  waitingWrites.delete(sqlite);
  for (const { reject } of waiting) reject(error);
}
