// Calendars (DECISIONS.md, 'Calendars'): an .ics file for every event a person may see, and a
// personal feed of 'Meine Veranstaltungen' under a secret address. The database keeps only the
// SHA-256 of the feed's secret; replacing it ends the old address at once.
import { and, asc, eq, exists, inArray, or, sql } from "drizzle-orm";
import ical, { type ICalCalendar } from "ical-generator";
import { eventHelpers, eventOwners, events, registrations, users } from "../../db/schema";
import { berlinToInstant, TIME_ZONE } from "~/lib/dates";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { hashToken, randomToken } from "~/services/tokens.server";
import { visibleTo } from "./event.server";
import { sessionUserColumns, type SessionUser } from "./user.server";

/** Europe/Berlin's rules since 1996 (last Sunday of March and October). */
const BERLIN_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Berlin",
  "X-LIC-LOCATION:Europe/Berlin",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
].join("\r\n");

const calendarColumns = {
  id: events.id,
  title: events.title,
  description: events.description,
  location: events.location,
  dateFrom: events.dateFrom,
  timeFrom: events.timeFrom,
  dateTo: events.dateTo,
  timeTo: events.timeTo,
  updatedAt: events.updatedAt,
};
type CalendarEvent = { id: number; title: string; description: string; location: string; dateFrom: string; timeFrom: string; dateTo: string | null; timeTo: string | null; updatedAt: Date };

/**
 * A wall-clock time as the Date ical-generator writes with TZID=Europe/Berlin: it reads the
 * local fields of the Date, so the Date is built from those fields whatever the server's zone.
 */
function wallClock(date: string, time: string) {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  return new Date(y, m - 1, d, hh, mm);
}

/** Start and end; without an end time the end is the start time on the last day, at least an hour later. */
export function eventSpan(e: { dateFrom: string; timeFrom: string; dateTo: string | null; timeTo: string | null }) {
  const lastDay = e.dateTo ?? e.dateFrom;
  const endTime = e.timeTo ?? e.timeFrom;
  const start = berlinToInstant(e.dateFrom, e.timeFrom);
  let end = berlinToInstant(lastDay, endTime);
  if (end.getTime() <= start.getTime()) end = new Date(start.getTime() + 3600_000);
  // The same span on the wall clock, for the TZID form.
  const berlin = (instant: Date) => {
    const parts = new Intl.DateTimeFormat("sv-SE", { timeZone: TIME_ZONE, dateStyle: "short", timeStyle: "short" }).format(instant);
    const [date, time] = parts.split(" ");
    return wallClock(date, time);
  };
  return { start: berlin(start), end: berlin(end) };
}

/**
 * A TEXT value as RFC 5545 writes it (backslash, semicolon, comma and line breaks escaped).
 * ical-generator escapes an event's summary, description and location, but writes the calendar's
 * name as given: an event title with a line break would add lines of its own to the file.
 */
function icsText(value: string) {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, "\\n");
}

function calendar(name: string, list: CalendarEvent[]): ICalCalendar {
  const appUrl = settings().appUrl;
  const cal = ical({
    name: icsText(name),
    prodId: { company: "Lagerfeuer", product: "Veranstaltungen", language: "DE" },
    timezone: { name: TIME_ZONE, generator: () => BERLIN_VTIMEZONE },
    ttl: 3600,
  });
  for (const e of list) {
    const { start, end } = eventSpan(e);
    const url = `${appUrl}/freizeit/${e.id}`;
    cal.createEvent({
      id: `freizeit-${e.id}@${new URL(appUrl).host}`,
      start,
      end,
      timezone: TIME_ZONE,
      summary: e.title,
      description: `${e.description}\n\n${url}`,
      location: e.location,
      url,
      stamp: e.updatedAt,
    });
  }
  return cal;
}

/** The .ics of one event, or null when the person may not see it (or it does not exist). */
export function eventCalendar(eventId: number, user: SessionUser | null) {
  if (!Number.isSafeInteger(eventId) || eventId <= 0) return null;
  const event = db.select(calendarColumns).from(events).where(and(eq(events.id, eventId), visibleTo(user))).get();
  if (!event) return null;
  return { title: event.title, ics: calendar(event.title, [event]).toString() };
}

/** 'Meine Veranstaltungen': events the person leads, helps at (accepted) or has a child registered for (not rejected or cancelled). */
function myEvents(user: SessionUser) {
  const one = sql`1`;
  return db
    .select(calendarColumns)
    .from(events)
    .where(
      and(
        visibleTo(user),
        or(
          exists(db.select({ one }).from(eventOwners).where(and(eq(eventOwners.eventId, events.id), eq(eventOwners.userId, user.id)))),
          exists(
            db
              .select({ one })
              .from(eventHelpers)
              .where(and(eq(eventHelpers.eventId, events.id), eq(eventHelpers.userId, user.id), eq(eventHelpers.status, "accepted"))),
          ),
          exists(
            db
              .select({ one })
              .from(registrations)
              .where(
                and(
                  eq(registrations.eventId, events.id),
                  eq(registrations.userId, user.id),
                  inArray(registrations.applicationStatus, ["open", "accepted"]),
                ),
              ),
          ),
        ),
      ),
    )
    .orderBy(asc(events.startsAt))
    .all();
}

/** The personal feed behind `token`, or null for an unknown or replaced address (and a banned account). */
export function personalFeed(token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const user = db
    .select({ ...sessionUserColumns, banned: users.banned })
    .from(users)
    .where(eq(users.calendarTokenHash, hashToken(token)))
    .get();
  if (!user || user.banned) return null;
  return calendar("Meine Veranstaltungen", myEvents(user)).toString();
}

/**
 * Whether the person has a feed, and its address when `token` (the one this browser was just
 * shown) is still that feed's secret; null once replaced. One read of the account.
 */
export function calendarFeedState(userId: number, token: string | null) {
  const hash = db.select({ hash: users.calendarTokenHash }).from(users).where(eq(users.id, userId)).get()?.hash ?? null;
  return { active: hash !== null, address: token && hash === hashToken(token) ? feedAddress(token) : null };
}

/** A new secret address for the person's feed; the old one stops working. Returns its secret. */
export function replaceCalendarFeed(userId: number) {
  const token = randomToken();
  db.update(users).set({ calendarTokenHash: hashToken(token) }).where(eq(users.id, userId)).run();
  return token;
}


export function feedAddress(token: string) {
  return `${settings().appUrl}/kalender/${token}/meine-veranstaltungen.ics`;
}

export function calendarResponse(ics: string, fileName: string, cacheControl: string) {
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
