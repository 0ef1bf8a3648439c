// For `npm run bench` (scripts/bench.mjs): events for the enrolment burst, each with `places`
// places at a camp's price (the placed families' confirmation pages carry a GiroCode, as on a real
// evening) and `parents` families (an account, a session, one child), written straight into the
// bench's database before the server starts. Prints JSON for the bench on stdout.
// Usage: tsx scripts/bench-fixtures.ts --bursts 2 --parents 500 --places 50
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { events, participants, registrations, sessions, users } from "../db/schema";
import { berlinToInstant, berlinToday } from "~/lib/dates";
import { db, writeTransaction } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";
import { createUserSession } from "~/services/session.server";

const { values } = parseArgs({ options: { bursts: { type: "string" }, parents: { type: "string" }, places: { type: "string" } } });
const bursts = Number(values.bursts ?? 1);
const parents = Number(values.parents ?? 500);
const places = Number(values.places ?? 50);

const dateFrom = new Date(`${berlinToday()}T12:00:00Z`);
dateFrom.setUTCDate(dateFrom.getUTCDate() + 60);
const day = dateFrom.toISOString().slice(0, 10);
const passwordHash = await hashPassword("Lagerfeuer-Bench-1");
const stamp = Date.now();

const result = [];
for (let b = 0; b < bursts; b++) {
  const { eventId, userIds } = writeTransaction((tx) => {
    const event = tx
      .insert(events)
      .values({ title: `Ansturm ${b + 1}`, description: "Der Abend, an dem die Anmeldung öffnet.", location: "Plön", dateFrom: day, timeFrom: "10:00", startsAt: berlinToInstant(day, "10:00"), capacity: places, priceCents: 24_500 })
      .returning({ id: events.id })
      .get();
    const ids = [];
    for (let i = 0; i < parents; i++) {
      const user = tx
        .insert(users)
        .values({ email: `ansturm-${stamp}-${b}-${i}@lagerfeuer.test`, firstName: `Eltern${i}`, lastName: "Ansturm", passwordHash, emailConfirmedAt: new Date() })
        .returning({ id: users.id })
        .get();
      const child = tx
        .insert(participants)
        .values({ userId: user.id, firstName: `Kind${i}`, lastName: "Ansturm", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" })
        .returning({ id: participants.id })
        .get();
      ids.push({ userId: user.id, childId: child.id });
    }
    return { eventId: event.id, userIds: ids };
  });
  const families = [];
  for (const { userId, childId } of userIds) {
    const setCookie = await createUserSession(userId, new Request("http://localhost/"));
    families.push({ cookie: setCookie.split(";")[0], childId });
  }
  result.push({ eventId, families });
}

// The event with the most registrations: its participant list is the longest to render.
const largest = db
  .select({ eventId: registrations.eventId, count: sql<number>`count(*)` })
  .from(registrations)
  .groupBy(registrations.eventId)
  .orderBy(sql`count(*) desc`)
  .limit(1)
  .get();
const sessionCount = db.select({ n: sql<number>`count(*)` }).from(sessions).get()?.n ?? 0;

process.stdout.write(JSON.stringify({ bursts: result, largestEvent: largest ?? null, sessions: sessionCount }));
