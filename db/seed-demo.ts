// Demo data: `npm run seed:demo -- --events 200 --users 1500 --registrations 5000`.
// Deterministic (a fixed random seed; dates are placed relative to today), realistic German
// content, every state the screens know. Fast enough for the benchmark's large size.
import { pathToFileURL } from "node:url";
import { count, isNull, like, notInArray, or, sql } from "drizzle-orm";
import {
  comments,
  enrolments,
  eventGroups,
  eventHelpers,
  eventOwners,
  events,
  groupMembers,
  guardians,
  participants,
  registrationHistory,
  registrations,
  sepaMandates,
  users,
  SWIM_BADGES,
  TSHIRT_SIZES,
  type HelperStatus,
} from "./schema";
import { berlinToInstant, berlinToday } from "../app/lib/dates";
import { childAmounts } from "../app/lib/money";
import type { Db } from "../app/services/db.server";

export type SeedOptions = { events: number; users: number; registrations: number };
export const DEFAULT_SEED: SeedOptions = { events: 24, users: 60, registrations: 240 };
export const DEMO_PASSWORD = "Lagerfeuer-Demo-1";
/** A reserved name (RFC 2606) that still passes the app's e-mail rule (a 2–6 letter TLD). */
export const DEMO_DOMAIN = "lagerfeuer.test";
/** Where demo accounts lived before; --reset removes those too. */
const FORMER_DEMO_DOMAIN = "lagerfeuer.example";

/** mulberry32: a small, fast, seedable random generator. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
  };
}

const FIRST_NAMES = [
  "Mia", "Emma", "Sofia", "Hannah", "Emilia", "Lina", "Marie", "Lea", "Clara", "Ella", "Ida", "Frieda",
  "Noah", "Ben", "Paul", "Leon", "Finn", "Elias", "Felix", "Jonas", "Luis", "Henry", "Emil", "Theo",
  "Anton", "Mats", "Jakob", "Lotta", "Greta", "Mathilda", "Tom", "Ole", "Jannik", "Nele", "Pia", "Lukas",
];
const ADULT_FIRST_NAMES = [
  "Sabine", "Andrea", "Katrin", "Julia", "Anja", "Stefanie", "Nicole", "Claudia", "Christina", "Melanie",
  "Thomas", "Michael", "Andreas", "Stefan", "Christian", "Markus", "Frank", "Jan", "Tobias", "Matthias",
];
const LAST_NAMES = [
  "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
  "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann",
  "Braun", "Krüger", "Hofmann", "Hartmann", "Lange", "Schmitt", "Werner", "Krause", "Meier", "Lehmann",
  "Jensen", "Petersen", "Hansen", "Thomsen", "Carstensen", "Paulsen", "Lorenzen", "Nissen",
];
const PLACES = [
  { city: "Kiel", postalCode: "24103", municipality: "Kiel", amt: "Landeshauptstadt Kiel" },
  { city: "Lübeck", postalCode: "23552", municipality: "Lübeck", amt: "Hansestadt Lübeck" },
  { city: "Plön", postalCode: "24306", municipality: "Kreis Plön", amt: "Amt Großer Plöner See" },
  { city: "Eutin", postalCode: "23701", municipality: "Kreis Ostholstein", amt: "Stadt Eutin" },
  { city: "Rendsburg", postalCode: "24768", municipality: "Kreis Rendsburg-Eckernförde", amt: "Stadt Rendsburg" },
  { city: "Preetz", postalCode: "24211", municipality: "Kreis Plön", amt: "Amt Preetz-Land" },
  { city: "Neumünster", postalCode: "24534", municipality: "Neumünster", amt: "Stadt Neumünster" },
  { city: "Schleswig", postalCode: "24837", municipality: "Kreis Schleswig-Flensburg", amt: "Amt Haddeby" },
  { city: "Bad Segeberg", postalCode: "23795", municipality: "Kreis Segeberg", amt: "Amt Trave-Land" },
  { city: "Husum", postalCode: "25813", municipality: "Kreis Nordfriesland", amt: "Amt Nordsee-Treene" },
];
const STREETS = ["Hauptstraße", "Lindenweg", "Am See", "Dorfstraße", "Birkenallee", "Schulweg", "Kirchstraße", "Mühlenweg", "Strandstraße", "Eichenhof"];
const EVENTS = [
  { title: "Sommerfreizeit an der Ostsee", location: "Jugendzeltplatz Hohwacht", days: 10, price: 34900, kind: "camp" },
  { title: "Zeltlager am Plöner See", location: "Zeltplatz Koppelsberg, Plön", days: 7, price: 24900, kind: "camp" },
  { title: "Skifreizeit im Allgäu", location: "Jugendhaus Oberjoch", days: 8, price: 48900, kind: "camp" },
  { title: "Kanutour auf der Schlei", location: "Kanustation Missunde", days: 4, price: 15900, kind: "camp" },
  { title: "Herbstfreizeit im Harz", location: "Jugendherberge Braunlage", days: 6, price: 27900, kind: "camp" },
  { title: "Pfingstzeltlager", location: "Pfadfinderplatz Westensee", days: 3, price: 6900, kind: "camp" },
  { title: "Reiterwochenende", location: "Reiterhof Gut Panker", days: 2, price: 12900, kind: "camp" },
  { title: "Kinderbibeltage", location: "Gemeindehaus St. Nikolai, Kiel", days: 3, price: 1500, kind: "day" },
  { title: "Jugendleiter-Schulung (Juleica)", location: "Bildungsstätte Koppelsberg", days: 5, price: 9000, kind: "staff" },
  { title: "Segeltörn auf dem Großen Plöner See", location: "Segelschule Plön", days: 5, price: 29900, kind: "camp" },
  { title: "Stadtranderholung", location: "Freizeitheim Schilksee", days: 10, price: 8000, kind: "day" },
  { title: "Spieleabend im Jugendkeller", location: "Jugendkeller Preetz", days: 1, price: 0, kind: "open" },
] as const;
const DESCRIPTIONS = {
  camp: "Gemeinsam draußen sein, Lagerfeuer, Spiele und neue Freundschaften: Unser erfahrenes Team betreut die Kinder rund um die Uhr. Unterbringung in Zelten bzw. Mehrbettzimmern, Vollverpflegung inklusive. Bitte Schlafsack, Regenjacke und feste Schuhe mitbringen.",
  day: "Ein buntes Tagesprogramm mit Basteln, Singen, Geschichten und Spielen. Die Kinder werden morgens gebracht und nachmittags abgeholt. Mittagessen und Getränke sind im Preis enthalten.",
  staff: "Die Grundschulung für angehende Jugendleiter*innen: Gruppenpädagogik, Aufsichtspflicht, Erste Hilfe und Spielpädagogik. Nach erfolgreicher Teilnahme kann die Juleica beantragt werden. Nur für Mitarbeitende.",
  open: "Offener Abend für alle: Brett- und Kartenspiele, Snacks und gute Gespräche. Keine Anmeldung nötig, kommt einfach vorbei!",
} as const;
const SPECIAL_NEEDS = ["", "", "", "", "Laktoseintoleranz", "Vegetarisch", "Heuschnupfen (Medikament dabei)", "Nussallergie – Notfallset im Gepäck", "Braucht abends ein Nachtlicht"];
const REFERRALS = ["", "Freunde", "Gemeindebrief", "Instagram", "Schule", "War letztes Jahr schon dabei"];
const GROUP_NAMES = ["Füchse", "Eulen", "Dachse", "Biber", "Falken", "Igel"];
const COMMENTS = [
  "Hat sich super in die Gruppe eingefunden.",
  "Bitte auf ausreichend Sonnencreme achten.",
  "Eltern haben um Rückruf nach der Ankunft gebeten.",
  "Schwimmabzeichen vor Ort nachgewiesen.",
];

function isoDate(base: string, days: number) {
  const date = new Date(`${base}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function chunked<T>(rows: T[], size = 400) {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

export type SeedResult = {
  admins: { email: string }[];
  parents: { email: string }[];
  counts: { events: number; users: number; participants: number; registrations: number };
};

/**
 * Fills an empty database with demo data. `passwordHash` is the one argon2id hash of
 * DEMO_PASSWORD every demo account shares (hashing thousands of passwords would take minutes).
 */
export function seedDemo(db: Db, options: SeedOptions, passwordHash: string): SeedResult {
  const rnd = random(20260701);
  const today = berlinToday();
  const adminCount = Math.max(1, Math.min(5, Math.ceil(options.users / 20)));

  return db.transaction(
    (tx) => {
      // --- people -----------------------------------------------------------------------
      const userRows = Array.from({ length: options.users }, (_, i) => {
        const isAdmin = i < adminCount;
        const firstName = rnd.pick(ADULT_FIRST_NAMES);
        const lastName = rnd.pick(LAST_NAMES);
        return {
          email: isAdmin ? `leitung${i + 1}@${DEMO_DOMAIN}` : `eltern${i + 1 - adminCount}@${DEMO_DOMAIN}`,
          firstName,
          lastName,
          passwordHash,
          role: isAdmin ? ("admin" as const) : ("user" as const),
          banned: !isAdmin && i % 97 === 96,
          emailConfirmedAt: new Date(),
        };
      });
      const userIds = chunked(userRows).flatMap((rows) => tx.insert(users).values(rows).returning({ id: users.id }).all().map((r) => r.id));
      const adminIds = userIds.slice(0, adminCount);
      const userById = new Map(userIds.map((id, i) => [id, userRows[i]]));
      const parentIds = userIds.slice(adminCount);

      const participantRows: (typeof participants.$inferInsert)[] = [];
      const guardianRows: (typeof guardians.$inferInsert)[] = [];
      for (const [index, userId] of parentIds.entries()) {
        const family = userRows[adminCount + index];
        const place = rnd.pick(PLACES);
        const street = `${rnd.pick(STREETS)} ${rnd.int(1, 80)}`;
        const children = rnd.int(1, 3);
        for (let c = 0; c < children; c++) {
          const age = rnd.int(6, 19);
          participantRows.push({
            userId,
            firstName: rnd.pick(FIRST_NAMES),
            lastName: family.lastName,
            street,
            postalCode: place.postalCode,
            city: place.city,
            birthDate: isoDate(today, -(age * 365 + rnd.int(0, 364))),
            municipality: place.municipality,
            amtsverwaltung: place.amt,
            tshirtSize: rnd.pick(TSHIRT_SIZES),
            swimBadge: rnd.chance(0.8) ? rnd.pick(SWIM_BADGES) : null,
            specialNeeds: rnd.pick(SPECIAL_NEEDS),
            nameOfInsured: `${family.firstName} ${family.lastName}`,
            birthdateOfInsured: isoDate(today, -(rnd.int(30, 55) * 365)),
          });
        }
        const guardiansOfFamily = rnd.int(1, 2);
        for (let g = 0; g < guardiansOfFamily; g++) {
          guardianRows.push({
            userId,
            firstName: g === 0 ? family.firstName : rnd.pick(ADULT_FIRST_NAMES),
            lastName: family.lastName,
            street,
            postalCode: place.postalCode,
            city: place.city,
            email: g === 0 ? family.email : "",
            mobilePhone: `01${rnd.int(50, 79)} ${rnd.int(1000000, 9999999)}`,
            phone: rnd.chance(0.5) ? `04${rnd.int(300, 899)} ${rnd.int(10000, 99999)}` : "",
          });
        }
      }
      const participantIds = chunked(participantRows).flatMap((rows) =>
        tx.insert(participants).values(rows).returning({ id: participants.id, userId: participants.userId }).all(),
      );
      const guardianIds = chunked(guardianRows).flatMap((rows) =>
        tx.insert(guardians).values(rows).returning({ id: guardians.id, userId: guardians.userId }).all(),
      );
      const childrenOf = new Map<number, number[]>();
      for (const p of participantIds) childrenOf.set(p.userId, [...(childrenOf.get(p.userId) ?? []), p.id]);
      const guardianOf = new Map<number, number>();
      for (const g of guardianIds) if (!guardianOf.has(g.userId)) guardianOf.set(g.userId, g.id);

      // --- events -------------------------------------------------------------------------
      const eventRows = Array.from({ length: options.events }, (_, i) => {
        const template = EVENTS[i % EVENTS.length];
        const round = Math.floor(i / EVENTS.length);
        // A third in the past, the rest spread over the coming year and a half.
        const past = i % 3 === 2;
        const offset = past ? -rnd.int(7, 400) : rnd.int(3, 540);
        const dateFrom = isoDate(today, offset);
        const timeFrom = template.kind === "open" ? "19:00" : rnd.pick(["09:00", "10:00", "14:00", "16:30"]);
        return {
          title: round === 0 ? template.title : `${template.title} ${round + 1}`,
          description: DESCRIPTIONS[template.kind],
          dateFrom,
          dateTo: template.days > 1 ? isoDate(dateFrom, template.days - 1) : null,
          timeFrom,
          timeTo: template.kind === "open" ? "22:00" : "16:00",
          registrationDeadline: template.kind === "open" ? null : isoDate(dateFrom, -14),
          startsAt: berlinToInstant(dateFrom, timeFrom),
          location: template.location,
          priceCents: template.price,
          siblingDiscount: template.kind === "camp" ? "Geschwisterkinder zahlen weniger" : "",
          // The same 10 %, in whole euros, as the amount the totals subtract.
          siblingDiscountCents: template.kind === "camp" ? Math.round(template.price / 1000) * 100 : 0,
          memberRules: template.kind === "staff" ? "Mitarbeitende ab 16 Jahren" : `Kinder von ${rnd.int(6, 9)} bis ${rnd.int(12, 17)} Jahren`,
          onlyStaffVisible: template.kind === "staff",
          requiresApplication: template.kind !== "open",
          tshirtSizeRequired: template.kind === "camp",
          swimBadgeRequired: template.kind === "camp" && rnd.chance(0.5),
          permitsRequired: template.kind === "camp",
          // The first camp is small and popular, so it has a waiting list.
          capacity: i === 0 ? 8 : template.kind === "camp" ? rnd.pick([null, 12, 20, 30, 40]) : template.kind === "day" ? 25 : null,
          createdById: rnd.pick(adminIds),
        };
      });
      const eventList = chunked(eventRows).flatMap((rows) =>
        tx
          .insert(events)
          .values(rows)
          .returning({
            id: events.id,
            capacity: events.capacity,
            requiresApplication: events.requiresApplication,
            permitsRequired: events.permitsRequired,
            tshirtSizeRequired: events.tshirtSizeRequired,
            swimBadgeRequired: events.swimBadgeRequired,
            priceCents: events.priceCents,
            siblingDiscountCents: events.siblingDiscountCents,
          })
          .all(),
      );

      // Owners (admins) and helpers (admins and some parents)
      const ownerRows: (typeof eventOwners.$inferInsert)[] = [];
      const helperRows: (typeof eventHelpers.$inferInsert)[] = [];
      const helperPool = [...adminIds, ...parentIds.slice(0, Math.max(3, Math.floor(parentIds.length / 10)))];
      for (const event of eventList) {
        const owner = rnd.pick(adminIds);
        ownerRows.push({ eventId: event.id, userId: owner });
        const helpers = new Set<number>();
        const wanted = rnd.int(1, 4);
        for (let h = 0; h < wanted * 2 && helpers.size < wanted; h++) {
          const candidate = rnd.pick(helperPool);
          if (candidate !== owner) helpers.add(candidate);
        }
        for (const userId of helpers) {
          const status: HelperStatus = rnd.pick(["accepted", "accepted", "pending", "declined"] as const);
          helperRows.push({ eventId: event.id, userId, status });
        }
      }
      for (const rows of chunked(ownerRows)) tx.insert(eventOwners).values(rows).run();
      for (const rows of chunked(helperRows)) tx.insert(eventHelpers).values(rows).run();

      // --- registrations -----------------------------------------------------------------------
      const enrollable = eventList.filter((e) => e.requiresApplication);
      const taken = new Set<string>();
      const placesUsed = new Map<number, number>();
      const waitingNext = new Map<number, number>();
      const mandates = new Map<string, number>();
      // One enrolment per family and event (as if each family had sent one form per event): one
      // payment method, one reference, the sibling discount from the second child with a place.
      const enrolmentOf = new Map<string, { eventId: number; userId: number; paymentMethod: "sepa" | "transfer"; rows: number[] }>();
      const registrationRows: (typeof registrations.$inferInsert)[] = [];
      const families = parentIds.filter((id) => childrenOf.has(id));
      let guard = 0;
      while (registrationRows.length < options.registrations && enrollable.length > 0 && guard++ < options.registrations * 20) {
        const event = rnd.chance(0.1) ? enrollable[0] : rnd.pick(enrollable);
        const userId = rnd.pick(families);
        const participantId = rnd.pick(childrenOf.get(userId)!);
        const key = `${event.id}:${participantId}`;
        if (taken.has(key)) continue;
        taken.add(key);
        const full = event.capacity !== null && (placesUsed.get(event.id) ?? 0) >= event.capacity;
        const status = full ? "open" : rnd.pick(["open", "accepted", "accepted", "accepted", "rejected"] as const);
        let waitingListPosition: number | null = null;
        if (full) {
          waitingListPosition = (waitingNext.get(event.id) ?? 0) + 1;
          waitingNext.set(event.id, waitingListPosition);
        } else if (status !== "rejected") {
          placesUsed.set(event.id, (placesUsed.get(event.id) ?? 0) + 1);
        }
        const family = `${userId}:${event.id}`;
        if (!enrolmentOf.has(family)) enrolmentOf.set(family, { eventId: event.id, userId, paymentMethod: rnd.chance(0.4) ? "sepa" : "transfer", rows: [] });
        const enrolment = enrolmentOf.get(family)!;
        enrolment.rows.push(registrationRows.length);
        const paymentMethod = enrolment.paymentMethod;
        let sepaMandateId: number | null = null;
        if (paymentMethod === "sepa") {
          const mandateKey = `${userId}:${event.id}`;
          if (!mandates.has(mandateKey)) {
            const family = userById.get(userId)!;
            const place = rnd.pick(PLACES);
            const mandate = tx
              .insert(sepaMandates)
              .values({
                userId,
                eventId: event.id,
                firstName: family.firstName,
                lastName: family.lastName,
                street: `${rnd.pick(STREETS)} ${rnd.int(1, 80)}`,
                postalCode: place.postalCode,
                city: place.city,
                iban: "DE89370400440532013000",
              })
              .returning({ id: sepaMandates.id })
              .get();
            mandates.set(mandateKey, mandate.id);
          }
          sepaMandateId = mandates.get(mandateKey)!;
        }
        const answer = () => (event.permitsRequired ? rnd.chance(0.85) : null);
        registrationRows.push({
          eventId: event.id,
          participantId,
          userId,
          guardianId: guardianOf.get(userId) ?? null,
          referral: rnd.pick(REFERRALS),
          paymentMethod,
          sepaMandateId,
          paid: status === "accepted" && rnd.chance(0.6),
          applicationStatus: status,
          waitingListPosition,
          allowedToWander: answer(),
          allowedToSwim: answer(),
          canSwim: answer(),
          allowedToCanoe: answer(),
          // The answers of the enrolment itself, as its form asks them (leaders' review: the
          // participant list's T-shirt and swim badge columns were empty in the demo).
          tshirtSize: event.tshirtSizeRequired ? rnd.pick(TSHIRT_SIZES) : null,
          swimBadge: event.swimBadgeRequired ? rnd.pick(SWIM_BADGES) : null,
          specialNeeds: rnd.pick(SPECIAL_NEEDS),
        });
      }
      // The enrolments, their references as the app makes them (LF-{event}-A{enrolment}), and
      // each registration's amount: waiting children pay nothing yet.
      const enrolmentList = [...enrolmentOf.values()];
      const enrolmentIds = chunked(enrolmentList).flatMap((rows) =>
        tx
          .insert(enrolments)
          .values(rows.map((e) => ({ eventId: e.eventId, userId: e.userId, paymentMethod: e.paymentMethod, submissionKey: `demo-${e.userId}-${e.eventId}`, reference: `demo-${e.userId}-${e.eventId}` })))
          .returning({ id: enrolments.id })
          .all()
          .map((r) => r.id),
      );
      tx.update(enrolments)
        .set({ reference: sql`'LF-' || ${enrolments.eventId} || '-A' || ${enrolments.id}` })
        .where(like(enrolments.reference, "demo-%"))
        .run();
      const eventById = new Map(eventList.map((e) => [e.id, e]));
      enrolmentList.forEach((enrolment, i) => {
        const event = eventById.get(enrolment.eventId)!;
        const rows = enrolment.rows.map((index) => registrationRows[index]);
        const amounts = childAmounts(event.priceCents, event.siblingDiscountCents, 0, rows.map((r) => r.waitingListPosition === null));
        rows.forEach((row, j) => Object.assign(row, { enrolmentId: enrolmentIds[i], submissionKey: `demo-${enrolment.userId}-${enrolment.eventId}`, amountCents: amounts[j] }));
      });
      const registrationList = chunked(registrationRows).flatMap((rows) =>
        tx
          .insert(registrations)
          .values(rows)
          .returning({ id: registrations.id, eventId: registrations.eventId, status: registrations.applicationStatus, participantId: registrations.participantId, waiting: registrations.waitingListPosition })
          .all(),
      );

      const historyRows: (typeof registrationHistory.$inferInsert)[] = [];
      for (const r of registrationList) {
        historyRows.push({ registrationId: r.id, action: "created" });
        if (r.status === "accepted") historyRows.push({ registrationId: r.id, action: "accepted", actorId: rnd.pick(adminIds) });
        if (r.status === "rejected")
          historyRows.push({ registrationId: r.id, action: "rejected", actorId: rnd.pick(adminIds), reason: "Die Altersgrenze passt leider nicht." });
      }
      for (const rows of chunked(historyRows)) tx.insert(registrationHistory).values(rows).run();

      // --- groups ---------------------------------------------------------------------------
      const groupRows = eventList.flatMap((event, i) =>
        i % 2 === 0 ? GROUP_NAMES.slice(0, 2 + (i % 3)).map((name) => ({ eventId: event.id, name })) : [],
      );
      const groupList = chunked(groupRows).flatMap((rows) =>
        tx.insert(eventGroups).values(rows).returning({ id: eventGroups.id, eventId: eventGroups.eventId }).all(),
      );
      const groupsOf = new Map<number, number[]>();
      for (const g of groupList) groupsOf.set(g.eventId, [...(groupsOf.get(g.eventId) ?? []), g.id]);
      const memberRows: (typeof groupMembers.$inferInsert)[] = [];
      for (const r of registrationList) {
        const groups = groupsOf.get(r.eventId);
        if (groups && r.status === "accepted" && rnd.chance(0.7)) memberRows.push({ eventId: r.eventId, groupId: rnd.pick(groups), registrationId: r.id });
      }
      for (const h of helperRows) {
        const groups = groupsOf.get(h.eventId);
        if (groups && h.status === "accepted") memberRows.push({ eventId: h.eventId, groupId: rnd.pick(groups), helperUserId: h.userId });
      }
      for (const rows of chunked(memberRows)) tx.insert(groupMembers).values(rows).run();

      // --- comments ---------------------------------------------------------------------------
      const commentRows = registrationList
        .filter((r) => r.status === "accepted" && rnd.chance(0.1))
        .map((r) => ({ participantId: r.participantId, eventId: r.eventId, authorId: rnd.pick(adminIds), text: rnd.pick(COMMENTS) }));
      for (const rows of chunked(commentRows)) tx.insert(comments).values(rows).run();

      return {
        admins: userRows.slice(0, adminCount).map((u) => ({ email: u.email })),
        parents: userRows
          .slice(adminCount)
          .filter((u) => !u.banned)
          .slice(0, 3)
          .map((u) => ({ email: u.email })),
        counts: {
          events: eventList.length,
          users: userIds.length,
          participants: participantIds.length,
          registrations: registrationList.length,
        },
      };
    },
    { behavior: "immediate" },
  );
}

const isDemoAccount = () => or(like(users.email, `%@${DEMO_DOMAIN}`), like(users.email, `%@${FORMER_DEMO_DOMAIN}`));

/**
 * `--reset`: removes the demo data (its events, and its accounts with all they hang on), in one
 * transaction. Accounts that are not demo accounts, such as the first admin, stay. A database
 * with an event a real account created, or a real account's registration, is refused untouched:
 * --reset pointed at an association's database must not delete its camps.
 */
export function resetDemoData(db: Db) {
  db.transaction((tx) => {
    const demo = tx.select({ id: users.id }).from(users).where(isDemoAccount());
    const foreignEvents = tx.select({ n: count() }).from(events).where(or(isNull(events.createdById), notInArray(events.createdById, demo))).get()!.n;
    const foreignRegistrations = tx.select({ n: count() }).from(registrations).where(notInArray(registrations.userId, demo)).get()!.n;
    const refusals = [
      foreignEvents && (foreignEvents === 1 ? "1 Veranstaltung, die nicht aus den Demo-Daten stammt" : `${foreignEvents} Veranstaltungen, die nicht aus den Demo-Daten stammen`),
      foreignRegistrations &&
        (foreignRegistrations === 1 ? "1 Anmeldung eines Kontos, das nicht aus den Demo-Daten stammt" : `${foreignRegistrations} Anmeldungen von Konten, die nicht aus den Demo-Daten stammen`),
    ].filter(Boolean);
    if (refusals.length) {
      throw new Error(`--reset ersetzt nur Demo-Daten, die Datenbank enthält aber ${refusals.join(" und ")}. Nichts gelöscht.`);
    }
    // Everything else hangs off events and accounts (ON DELETE CASCADE).
    tx.delete(events).run();
    tx.delete(users).where(isDemoAccount()).run();
  }, { behavior: "immediate" });
}

function parseArgs(argv: string[]): SeedOptions & { reset: boolean } {
  const options = { ...DEFAULT_SEED, reset: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--reset") {
      options.reset = true;
      continue;
    }
    const name = arg.replace(/^--/, "") as keyof SeedOptions;
    if (!(name in DEFAULT_SEED)) throw new Error(`Unbekannte Option ${arg}. Erlaubt: --events N --users N --registrations N --reset`);
    const value = Number(argv[++i]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${arg} braucht eine ganze Zahl ≥ 0`);
    options[name] = value;
  }
  if (options.users < 2) throw new Error("--users muss mindestens 2 sein (Leitung und Eltern)");
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const { settings } = await import("../app/services/env.server");
  const { openDatabase, migrateDatabase } = await import("../app/services/db.server");
  const { hashPassword } = await import("../app/services/password.server");
  const { sqlite, db } = openDatabase(settings().databasePath);
  migrateDatabase(sqlite);
  const existing = db.select({ n: count() }).from(events).get()!.n;
  if (existing > 0 && !options.reset) {
    console.error(`Die Datenbank ${settings().databasePath} enthält schon ${existing} Veranstaltungen. Mit --reset werden frühere Demo-Daten ersetzt.`);
    process.exit(1);
  }
  if (options.reset) resetDemoData(db);
  const started = performance.now();
  const result = seedDemo(db, options, await hashPassword(DEMO_PASSWORD));
  sqlite.close();
  const ms = Math.round(performance.now() - started);
  console.log(
    `Demo-Daten angelegt in ${ms} ms: ${result.counts.events} Veranstaltungen, ${result.counts.users} Konten, ` +
      `${result.counts.participants} Teilnehmende, ${result.counts.registrations} Anmeldungen.`,
  );
  console.log(`Passwort aller Demo-Konten: ${DEMO_PASSWORD}`);
  console.log(`Admins: ${result.admins.map((a) => a.email).join(", ")}`);
  console.log(`Eltern (Beispiele): ${result.parents.map((p) => p.email).join(", ")}`);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
