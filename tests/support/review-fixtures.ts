// The people of one camp for the leaders' screens (issue 10): an admin, a lead person, an accepted
// helper (team), a pending and a declined helper (applicants), a parent, each with a session.
import { sepaMandates } from "../../db/schema";
import { db, rawSqlite } from "~/services/db.server";
import { createEvent } from "./events";
import { createUser, sessionCookieFor } from "./fixtures";

export const PEOPLE = ["admin", "lead", "team", "pending", "declined", "parent"] as const;
export type Person = (typeof PEOPLE)[number];

export async function campWithPeople(options: Parameters<typeof createEvent>[0] = {}) {
  const people = {} as Record<Person, { id: number; cookie: string; firstName: string; lastName: string }>;
  for (const name of PEOPLE) {
    const user = await createUser({ role: name === "admin" ? "admin" : "user", firstName: name[0].toUpperCase() + name.slice(1), lastName: "Beispiel" });
    people[name] = { id: user.id, cookie: await sessionCookieFor(user.id), firstName: user.firstName, lastName: user.lastName };
  }
  const event = createEvent({
    title: "Sommerlager",
    ownerIds: [people.lead.id],
    helpers: [
      [people.team.id, "accepted"],
      [people.pending.id, "pending"],
      [people.declined.id, "declined"],
    ],
    ...options,
  });
  return { event, people };
}

export function mandateFor(eventId: number, userId: number, values: Partial<typeof sepaMandates.$inferInsert> = {}) {
  return db
    .insert(sepaMandates)
    .values({ eventId, userId, firstName: "Konrad", lastName: "Konto", street: "Bankweg 7", postalCode: "24103", city: "Kiel", iban: "DE89370400440532013000", ...values })
    .returning()
    .get();
}

/** Runs `work` and records the SQL of the statements it prepares (every query drizzle builds prepares one). */
export async function recordStatements<T>(work: () => T | Promise<T>) {
  const sqlite = rawSqlite();
  const original = sqlite.prepare;
  const statements: string[] = [];
  sqlite.prepare = function (this: typeof sqlite, ...args: Parameters<typeof original>) {
    statements.push(args[0]);
    return original.apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), statements };
  } finally {
    sqlite.prepare = original;
  }
}

/** Runs `work` and counts the SQL statements it prepares. */
export async function countStatements<T>(work: () => Promise<T>) {
  const { result, statements } = await recordStatements(work);
  return { result, statements: statements.length };
}
