// The four Excel lists of an event (DECISIONS.md, 'Excel lists' and 'Zuschussliste'). One query
// per list part, whatever the number of rows; only accepted registrations and accepted helpers;
// never an IBAN.
import { and, asc, eq } from "drizzle-orm";
import {
  germanNameOrder,
  eventGroups,
  eventHelpers,
  events,
  groupMembers,
  guardians,
  participants,
  registrations,
  users,
} from "../../db/schema";
import { ageOn } from "~/lib/age";
import { formatIsoDate } from "~/lib/dates";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { excelDate, streamWorkbook, type CellValue, type Column, type WorkbookWriter } from "~/services/excel.server";
import { getCampSheets } from "./camp-sheet.server";

export const EXPORT_LISTS = {
  teilnehmerliste: "Teilnehmerliste",
  zuschussliste: "Zuschussliste",
  mitarbeiterliste: "Mitarbeiterliste",
  gruppenliste: "Gruppenliste",
} as const;
export type ExportList = keyof typeof EXPORT_LISTS;

export function isExportList(value: string | undefined): value is ExportList {
  return value !== undefined && Object.hasOwn(EXPORT_LISTS, value);
}

/** 'Teilnehmerliste (Zeltlager).xlsx'; characters no file system takes become '_'. */
export function exportFileName(list: ExportList, title: string) {
  // eslint-disable-next-line no-control-regex
  const safeTitle = title.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_").trim().slice(0, 120);
  return `${EXPORT_LISTS[list]} (${safeTitle}).xlsx`;
}

type EventHead = { id: number; title: string; location: string; dateFrom: string; dateTo: string | null };

function eventHead(eventId: number): EventHead | undefined {
  return db
    .select({ id: events.id, title: events.title, location: events.location, dateFrom: events.dateFrom, dateTo: events.dateTo })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
}

/** Days of the event, first and last day included. */
export function eventDays(dateFrom: string, dateTo: string | null) {
  if (!dateTo) return 1;
  return Math.round((Date.parse(`${dateTo}T00:00:00Z`) - Date.parse(`${dateFrom}T00:00:00Z`)) / 86_400_000) + 1;
}

const yesNo = (value: boolean | null) => (value === null ? "" : value ? "ja" : "nein");
const PAYMENT_WORDS = { transfer: "Überweisung", sepa: "SEPA-Lastschriftmandat" } as const;

/** Accepted registrations of the event with participant, account, guardian and group. */
function acceptedRegistrations(eventId: number) {
  return db
    .select({
      firstName: participants.firstName,
      lastName: participants.lastName,
      birthDate: participants.birthDate,
      street: participants.street,
      postalCode: participants.postalCode,
      city: participants.city,
      municipality: participants.municipality,
      amtsverwaltung: participants.amtsverwaltung,
      accountEmail: users.email,
      guardianFirstName: guardians.firstName,
      guardianLastName: guardians.lastName,
      guardianEmail: guardians.email,
      guardianMobile: guardians.mobilePhone,
      guardianPhone: guardians.phone,
      tshirtSize: registrations.tshirtSize,
      swimBadge: registrations.swimBadge,
      specialNeeds: registrations.specialNeeds,
      allowedToWander: registrations.allowedToWander,
      allowedToSwim: registrations.allowedToSwim,
      canSwim: registrations.canSwim,
      allowedToCanoe: registrations.allowedToCanoe,
      paymentMethod: registrations.paymentMethod,
      paid: registrations.paid,
      amountCents: registrations.amountCents,
      group: eventGroups.name,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .innerJoin(users, eq(users.id, registrations.userId))
    .leftJoin(guardians, eq(guardians.id, registrations.guardianId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, registrations.eventId), eq(groupMembers.registrationId, registrations.id)))
    .leftJoin(eventGroups, eq(eventGroups.id, groupMembers.groupId))
    .where(and(eq(registrations.eventId, eventId), eq(registrations.applicationStatus, "accepted")))
    .orderBy(germanNameOrder(participants.lastName), germanNameOrder(participants.firstName), asc(registrations.id))
    .all();
}

function acceptedHelpers(eventId: number) {
  return db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, group: eventGroups.name })
    .from(eventHelpers)
    .innerJoin(users, eq(users.id, eventHelpers.userId))
    .leftJoin(groupMembers, and(eq(groupMembers.eventId, eventHelpers.eventId), eq(groupMembers.helperUserId, eventHelpers.userId)))
    .leftJoin(eventGroups, eq(eventGroups.id, groupMembers.groupId))
    .where(and(eq(eventHelpers.eventId, eventId), eq(eventHelpers.status, "accepted")))
    .orderBy(germanNameOrder(users.lastName), germanNameOrder(users.firstName), asc(users.id))
    .all();
}

const PARTICIPANT_COLUMNS: Column[] = [
  { header: "Nachname", width: 18 },
  { header: "Vorname", width: 16 },
  { header: "Geburtsdatum", width: 13, type: "date" },
  { header: "Alter bei Beginn", width: 10, type: "number" },
  { header: "Straße", width: 24 },
  { header: "PLZ", width: 8 },
  { header: "Ort", width: 18 },
  { header: "Erziehungsberechtigte*r", width: 24 },
  { header: "Mobil", width: 18 },
  { header: "Telefon", width: 18 },
  { header: "E-Mail", width: 28 },
  { header: "T-Shirt-Größe", width: 8 },
  { header: "Schwimmabzeichen", width: 14 },
  { header: "Darf wandern", width: 8 },
  { header: "Darf schwimmen", width: 8 },
  { header: "Kann schwimmen", width: 8 },
  { header: "Darf Kanu fahren", width: 8 },
  { header: "Besonderheiten", width: 40 },
  { header: "Zahlungsart", width: 22 },
  { header: "Bezahlt", width: 8 },
  { header: "Betrag", width: 11, type: "euro" },
  { header: "Gruppe", width: 16 },
];

function writeTeilnehmerliste(book: WorkbookWriter, event: EventHead) {
  const sheet = book.sheet("Teilnehmerliste", PARTICIPANT_COLUMNS);
  sheet.header();
  for (const r of acceptedRegistrations(event.id)) {
    sheet.row([
      r.lastName,
      r.firstName,
      excelDate(r.birthDate),
      ageOn(r.birthDate, event.dateFrom),
      r.street,
      r.postalCode ?? "",
      r.city,
      r.guardianLastName ? `${r.guardianFirstName} ${r.guardianLastName}` : "",
      r.guardianMobile ?? "",
      r.guardianPhone ?? "",
      r.guardianEmail || r.accountEmail,
      r.tshirtSize ?? "",
      r.swimBadge ?? "",
      yesNo(r.allowedToWander),
      yesNo(r.allowedToSwim),
      yesNo(r.canSwim),
      yesNo(r.allowedToCanoe),
      r.specialNeeds,
      PAYMENT_WORDS[r.paymentMethod],
      r.paid ? "ja" : "nein",
      r.amountCents === null ? null : r.amountCents / 100,
      r.group ?? "",
    ]);
  }
  sheet.done();
}

const SUBSIDY_COLUMNS: Column[] = [
  { header: "Nr.", width: 6, type: "number" },
  { header: "Name", width: 18 },
  { header: "Vorname", width: 16 },
  { header: "Straße", width: 24 },
  { header: "PLZ", width: 8 },
  { header: "Ort", width: 18 },
  { header: "Kreis", width: 18 },
  { header: "Amtsverwaltung", width: 22 },
  { header: "Geburtsdatum", width: 13, type: "date" },
  { header: "Alter bei Beginn", width: 10, type: "number" },
  { header: "Anwesenheitstage", width: 12, type: "number" },
  { header: "Unterschrift", width: 28 },
];

function writeZuschussliste(book: WorkbookWriter, event: EventHead) {
  const days = eventDays(event.dateFrom, event.dateTo);
  const period = `${formatIsoDate(event.dateFrom)} bis ${formatIsoDate(event.dateTo ?? event.dateFrom)}`;
  const head: CellValue[][] = [
    ["Träger", settings().bank.accountHolder],
    ["Veranstaltung", event.title],
    ["Ort", event.location],
    ["Zeitraum", period],
    ["Tage", days],
  ];
  // The head block, an empty row, then the header row: frozen below it.
  const sheet = book.sheet("Zuschussliste", SUBSIDY_COLUMNS, { frozenRow: head.length + 2 });
  for (const line of head) sheet.row(line);
  sheet.row([]);
  sheet.header();
  let n = 0;
  for (const r of acceptedRegistrations(event.id)) {
    n++;
    sheet.row([
      n,
      r.lastName,
      r.firstName,
      r.street,
      r.postalCode ?? "",
      r.city,
      r.municipality,
      r.amtsverwaltung,
      excelDate(r.birthDate),
      ageOn(r.birthDate, event.dateFrom),
      days,
      "",
    ]);
  }
  sheet.row([]);
  sheet.row(["", "Summe Teilnehmendentage", "", "", "", "", "", "", "", "", n * days, ""], { bold: true });
  sheet.done();
}

function writeMitarbeiterliste(book: WorkbookWriter, event: EventHead) {
  const sheet = book.sheet("Mitarbeiterliste", [
    { header: "Nachname", width: 18 },
    { header: "Vorname", width: 16 },
    { header: "E-Mail", width: 32 },
    { header: "Gruppe", width: 18 },
  ]);
  sheet.header();
  for (const h of acceptedHelpers(event.id)) sheet.row([h.lastName, h.firstName, h.email, h.group ?? ""]);
  sheet.done();
}

const GROUP_COLUMNS: Column[] = [
  { header: "Rolle", width: 16 },
  { header: "Nachname", width: 18 },
  { header: "Vorname", width: 16 },
  { header: "Geburtsdatum", width: 13, type: "date" },
  { header: "Alter bei Beginn", width: 10, type: "number" },
];

/** One sheet per group, then 'Ohne Gruppe' for whoever has none: the camp sheets' grouping. */
function writeGruppenliste(book: WorkbookWriter, event: EventHead) {
  for (const group of getCampSheets(event.id)?.sheets ?? []) {
    const sheet = book.sheet(group.name, GROUP_COLUMNS);
    sheet.header();
    for (const h of group.helpers) sheet.row(["Mitarbeiter*in", h.lastName, h.firstName, null, null]);
    for (const c of group.children) sheet.row(["Teilnehmer*in", c.lastName, c.firstName, excelDate(c.birthDate), c.age]);
    sheet.done();
  }
}

const WRITERS: Record<ExportList, (book: WorkbookWriter, event: EventHead) => void> = {
  teilnehmerliste: writeTeilnehmerliste,
  zuschussliste: writeZuschussliste,
  mitarbeiterliste: writeMitarbeiterliste,
  gruppenliste: writeGruppenliste,
};

/** The list as a streamed .xlsx with its file name; null when the event does not exist. */
export function exportList(eventId: number, list: ExportList) {
  const event = eventHead(eventId);
  if (!event) return null;
  return { fileName: exportFileName(list, event.title), body: streamWorkbook((book) => WRITERS[list](book, event)) };
}
