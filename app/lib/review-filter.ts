// The participant list's filter and name search (spec part 2 §2.5, issue 10): plain GET
// parameters, so a filtered list can be bookmarked and works without JavaScript.
import { owes, stateOf, type RegistrationFacts } from "./registration-machine";
import { joinNames } from "./names";
import { referencesIn } from "./transfer";

export const LIST_FILTERS = ["alle", "offen", "bestaetigt", "unbezahlt", "warteliste", "abgelehnt"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

export const FILTER_LABELS: Record<ListFilter, string> = {
  alle: "Alle",
  offen: "Offen",
  bestaetigt: "Bestätigt",
  unbezahlt: "Unbezahlt",
  warteliste: "Warteliste",
  abgelehnt: "Abgelehnt",
};

/** The longest search we look at, anything longer cut: room for a pasted bank statement's line
 * (a SEPA transfer's text has up to 140 characters; with the payer, date and amount, more). */
export const MAX_SEARCH = 400;

/** What the search field takes: more than the search, so that the server, not the browser, cuts a
 * pasted line (a browser cuts at its field's limit, inside a reference as likely as not). */
export const MAX_SEARCH_FIELD = 2000;

/** A search cut to the limit before its last (cut) word, so that a reference is not shortened
 * into another enrolment's; one word longer than the limit is cut as it is. */
function cutSearch(text: string) {
  if (text.length <= MAX_SEARCH) return text;
  const cut = text.slice(0, MAX_SEARCH + 1);
  const space = cut.lastIndexOf(" ");
  return space > 0 ? cut.slice(0, space) : cut.slice(0, MAX_SEARCH);
}

/** Registrations per page: a page of a 500-child camp stays quick to send and to read on a phone. */
export const PAGE_SIZE = 50;

export type ListQuery = { filter: ListFilter; search: string; page: number };

export function parseListQuery(params: URLSearchParams): ListQuery {
  const raw = params.get("filter") ?? "alle";
  const filter = (LIST_FILTERS as readonly string[]).includes(raw) ? (raw as ListFilter) : "alle";
  const search = cutSearch((params.get("suche") ?? "").trim().replace(/\s+/g, " "));
  const page = Number(params.get("seite") ?? 1);
  return { filter, search, page: Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

/** The list's address with the filter, search and page kept (defaults left out). */
export function listSearch(query: ListQuery) {
  const params = new URLSearchParams();
  if (query.filter !== "alle") params.set("filter", query.filter);
  if (query.search) params.set("suche", query.search);
  if (query.page > 1) params.set("seite", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The rows of one page, and which page it really is (a page past the end shows the last). */
export function pageOf<T>(rows: T[], page: number) {
  const pageCount = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(page, pageCount);
  return { rows: rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE), page: current, pageCount };
}

/** Which part of the page a registration is shown in. */
export type ListSection = "table" | "waiting" | "rejected";

export function sectionOf(r: RegistrationFacts): ListSection {
  const state = stateOf(r);
  if (state === "waiting" || state === "offered") return "waiting";
  if (state === "rejected" || state === "cancelled") return "rejected";
  return "table";
}

export function matchesFilter(r: RegistrationFacts & { amountCents?: number | null }, filter: ListFilter) {
  const state = stateOf(r);
  switch (filter) {
    case "alle":
      return true;
    case "offen":
      return state === "open";
    case "bestaetigt":
      return state === "accepted";
    case "unbezahlt":
      return owes(r);
    case "warteliste":
      return state === "waiting" || state === "offered";
    case "abgelehnt":
      return state === "rejected" || state === "cancelled";
  }
}

/** Lower case, and umlauts as a bank writes them (ä → ae, ß → ss): "Schäfer" and "Schaefer" alike. */
function fold(text: string) {
  return text
    .toLocaleLowerCase("de-DE")
    .normalize("NFC")
    .replace(/[äöüß]/g, (c) => ({ ä: "ae", ö: "oe", ü: "ue", ß: "ss" })[c]!);
}

/**
 * Every word of the search appears in the child's first or last name, or every word in the
 * account holder's (the payer a statement names), in any order, any case. A search
 * holding transfer references (a bank statement's line) finds those enrolments' children alone.
 */
export function matchesSearch(person: SearchedPerson, search: string) {
  return searchMatcher(search)(person);
}

type SearchedPerson = { firstName: string; lastName: string; payer?: string; reference?: string | null };

/** matchesSearch for one search and many people: the search is read once. */
export function searchMatcher(search: string): (person: SearchedPerson) => boolean {
  const references = new Set(referencesIn(search).map((r) => r.reference));
  if (references.size) return (person) => person.reference != null && references.has(person.reference);
  // "Schäfer, Ida" as the list writes it: commas and semicolons part words as spaces do.
  const words = fold(search)
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (!words.length) return () => true;
  return (person) => {
    const name = fold(`${person.firstName} ${person.lastName}`);
    if (words.every((word) => name.includes(word))) return true;
    const payer = person.payer ? fold(person.payer) : null;
    return payer !== null && words.every((word) => payer.includes(word));
  };
}

/** What a search holding transfer references looked for, said above the list; null otherwise. */
export function referenceNote(search: string, eventId: number): string | null {
  const references = referencesIn(search);
  if (!references.length) return null;
  const here = references.filter((r) => r.eventId === eventId).map((r) => r.reference);
  const elsewhere = references.filter((r) => r.eventId !== eventId).map((r) => r.reference);
  const sentences = [];
  if (here.length === 1) sentences.push(`Gesucht nach dem Verwendungszweck ${here[0]}: die Kinder dieser Anmeldung.`);
  if (here.length > 1) sentences.push(`Gesucht nach den Verwendungszwecken ${joinNames(here)}: die Kinder dieser Anmeldungen.`);
  if (elsewhere.length === 1) sentences.push(`Der Verwendungszweck ${elsewhere[0]} gehört zu einer anderen Veranstaltung.`);
  if (elsewhere.length > 1) {
    const oneEvent = new Set(references.filter((r) => r.eventId !== eventId).map((r) => r.eventId)).size === 1;
    sentences.push(`Die Verwendungszwecke ${joinNames(elsewhere)} gehören zu ${oneEvent ? "einer anderen Veranstaltung" : "anderen Veranstaltungen"}.`);
  }
  return sentences.join(" ");
}

/**
 * The list a child's detail page was opened from (its `?liste=`: filter, search and page), for its
 * 'Zurück': read as the list reads its own address, so anything else is the list's default.
 */
export function backSearchOf(params: URLSearchParams) {
  return listSearch(parseListQuery(new URLSearchParams(params.get("liste") ?? "")));
}

/** A child's detail page, carrying the list it was opened from through its links, forms and steps. */
export function detailAddress(registrationId: number, backSearch: string, extra: Record<string, string> = {}) {
  return `/freizeit/participants/participant-details/${registrationId}${detailSearch(backSearch, extra)}`;
}

/** The query of a detail page's address (see detailAddress), with `extra` parameters. */
export function detailSearch(backSearch: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(backSearch ? { liste: backSearch.slice(1) } : {});
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : "";
}
