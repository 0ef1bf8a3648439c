// The participant list's filter and name search (spec part 2 §2.5, issue 10): plain GET
// parameters, so a filtered list can be bookmarked and works without JavaScript.
import { holdsPlace, stateOf, type RegistrationFacts } from "./registration-machine";

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

/** The longest name search we look at; anything longer is cut (it cannot match a name anyway). */
const MAX_SEARCH = 100;

export type ListQuery = { filter: ListFilter; search: string };

export function parseListQuery(params: URLSearchParams): ListQuery {
  const raw = params.get("filter") ?? "alle";
  const filter = (LIST_FILTERS as readonly string[]).includes(raw) ? (raw as ListFilter) : "alle";
  const search = (params.get("suche") ?? "").trim().replace(/\s+/g, " ").slice(0, MAX_SEARCH);
  return { filter, search };
}

/** The list's address with the filter and search kept (defaults left out). */
export function listSearch(query: ListQuery) {
  const params = new URLSearchParams();
  if (query.filter !== "alle") params.set("filter", query.filter);
  if (query.search) params.set("suche", query.search);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Which part of the page a registration is shown in. */
export type ListSection = "table" | "waiting" | "rejected";

export function sectionOf(r: RegistrationFacts): ListSection {
  const state = stateOf(r);
  if (state === "waiting" || state === "offered") return "waiting";
  if (state === "rejected" || state === "cancelled") return "rejected";
  return "table";
}

export function matchesFilter(r: RegistrationFacts, filter: ListFilter) {
  const state = stateOf(r);
  switch (filter) {
    case "alle":
      return true;
    case "offen":
      return state === "open";
    case "bestaetigt":
      return state === "accepted";
    case "unbezahlt":
      return holdsPlace(state) && state !== "offered" && !r.paid;
    case "warteliste":
      return state === "waiting" || state === "offered";
    case "abgelehnt":
      return state === "rejected" || state === "cancelled";
  }
}

function fold(text: string) {
  return text.toLocaleLowerCase("de-DE").normalize("NFC");
}

/** Every word of the search appears in the first or last name, in any order, any case. */
export function matchesSearch(person: { firstName: string; lastName: string }, search: string) {
  if (!search) return true;
  const name = fold(`${person.firstName} ${person.lastName}`);
  return fold(search)
    .split(" ")
    .every((word) => name.includes(word));
}
