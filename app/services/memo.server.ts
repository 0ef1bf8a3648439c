// Values read from the database that nearly every page shows and that rarely change (the footer's
// legal links): computed once per state of the database, as the page cache's key defines it
// (any committed write, by this process or another, makes them stale).
import { databaseGeneration } from "./page-cache.server";
import { rawSqlite } from "./db.server";

/** `read` once per database state (and per connection: tests open new files). */
export function memoizedPerDatabaseState<T>(read: () => T): () => T {
  let last: { sqlite: unknown; generation: string; value: T } | undefined;
  return () => {
    const sqlite = rawSqlite();
    const generation = databaseGeneration();
    if (last?.sqlite !== sqlite || last.generation !== generation) last = { sqlite, generation, value: read() };
    return last.value;
  };
}
