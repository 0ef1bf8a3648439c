// Dates and times of the association: shown and compared in Europe/Berlin, whatever the
// server's own zone is.
export const TIME_ZONE = "Europe/Berlin";

const partsFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Minutes Berlin is ahead of UTC at `instant` (60 in winter, 120 in summer). */
function berlinOffsetMinutes(instant: number) {
  const parts = partsFormat.formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The years a date typed into the app can have: births since 1900, events of this and the next
 * centuries. A mistyped year ("215") is refused, not stored and printed as "15" (dates show
 * dd.mm.yy).
 */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2199;

/** A day of the calendar as YYYY-MM-DD, of any year: what a stored date is read as. */
function isCalendarDate(value: string) {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A date as a form takes it: a day of the calendar in the years above. */
export function isIsoDate(value: string) {
  if (!isCalendarDate(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

const TYPED_DATE = /^\s*(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4}|\d{2})\s*$/;
/** A two-digit year is the one of the hundred years from 79 years ago to this many years ahead. */
const TWO_DIGIT_YEARS_AHEAD = 20;

/**
 * A date field's value as ISO: a browser without a date picker (Opera Mini on a weak connection)
 * shows a text field, where people type "1.5.2015", or "1.5.15" as the app prints dates. Anything
 * else stays as it came, for the schema to judge; so does a day not in the calendar
 * ("30.02.2015"), which the form then shows back as it was typed, next to the schema's message.
 */
export function isoDateFromTyped(value: string, now = new Date()) {
  const match = TYPED_DATE.exec(value);
  if (!match) return value;
  let year = match[3];
  if (year.length === 2) {
    const thisYear = now.getUTCFullYear();
    const candidate = Math.floor(thisYear / 100) * 100 + Number(year);
    const ahead = candidate - thisYear;
    year = String(ahead > TWO_DIGIT_YEARS_AHEAD ? candidate - 100 : ahead <= TWO_DIGIT_YEARS_AHEAD - 100 ? candidate + 100 : candidate);
  }
  const iso = `${year}-${match[2].padStart(2, "0")}-${match[1].padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : value;
}

const TYPED_TIME = /^\s*(\d{1,2})(?:[.:](\d{2}))?\s*(Uhr)?\s*$/i;

/**
 * A time field's value as HH:MM, from a text field of the same browsers: "10.00", "9:30", "9.30
 * Uhr", "18 Uhr". Anything else (a bare "10", an hour past 23) stays as it came, for the schema.
 */
export function isoTimeFromTyped(value: string) {
  const match = TYPED_TIME.exec(value);
  if (!match || (match[2] === undefined && !match[3])) return value;
  const time = `${match[1].padStart(2, "0")}:${match[2] ?? "00"}`;
  return TIME.test(time) ? time : value;
}

/**
 * A date or time field's format for the input's attributes, shown only where a browser has no
 * picker and gives a text field (pickers ignore a placeholder): the form reader takes it typed so.
 */
export function typedDateHint(type: string | undefined) {
  if (type === "date") return { placeholder: "TT.MM.JJJJ" };
  return type === "time" ? { placeholder: "HH:MM" } : {};
}

export function isTime(value: string) {
  return TIME.test(value);
}

/**
 * The instant at which the Berlin wall-clock time `time` on `date` happens. A time that does not
 * exist (skipped at the spring change) moves forward by the gap; a time that exists twice (the
 * autumn change) is the first of the two.
 */
export function berlinToInstant(date: string, time = "00:00"): Date {
  // Also a date stored before the years were checked (the calendar feeds read every event's).
  if (!isCalendarDate(date) || !isTime(time)) throw new RangeError(`Ungültiges Datum oder Uhrzeit: ${date} ${time}`);
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The offset two hours before the wall time, read as UTC, is the one in force at the
  // moment sought — for the skipped hour it is the winter offset (moving the time forward),
  // for the repeated hour the summer one (the first occurrence).
  return new Date(wall - berlinOffsetMinutes(wall - 120 * 60_000) * 60_000);
}

// Spec part 2 §9: "Date display format dd.mm.yy", everywhere a date is shown (screens, mails,
// lists); the date fields themselves are the browser's.
const dateFormat = new Intl.DateTimeFormat("de-DE", {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "2-digit",
});
const timeFormat = new Intl.DateTimeFormat("de-DE", {
  timeZone: TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** A calendar date (YYYY-MM-DD) as the spec shows it: 24.12.26. */
export function formatIsoDate(date: string) {
  const [y, m, d] = date.split("-");
  return `${d}.${m}.${y.slice(-2)}`;
}

/** An instant's Berlin date, as the spec shows it: 24.12.26. */
export function formatDate(instant: Date | number) {
  return dateFormat.format(instant);
}

/** An instant's Berlin time, 24-hour with 'Uhr': 09:30 Uhr. */
export function formatTime(instant: Date | number) {
  return `${timeFormat.format(instant)} Uhr`;
}

/** A wall-clock time (HH:MM) with 'Uhr'. */
export function formatClock(time: string) {
  return `${time} Uhr`;
}

/** The last answer of berlinToday, for the minute it was asked in. */
let lastToday: { minute: number; date: string } | undefined;

/**
 * Today's date in Berlin as YYYY-MM-DD. Berlin's offset is whole hours, so the date only changes
 * as a minute begins: the answer is kept for the minute (an enrolment asks three times, and
 * the time zone's rules cost more than the rest of its checks).
 */
export function berlinToday(now: Date | number = Date.now()) {
  const instant = typeof now === "number" ? now : now.getTime();
  const minute = Math.floor(instant / 60_000);
  if (lastToday?.minute === minute) return lastToday.date;
  const parts = partsFormat.formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  const date = `${get("year")}-${get("month")}-${get("day")}`;
  if (Number.isFinite(minute)) lastToday = { minute, date };
  return date;
}
