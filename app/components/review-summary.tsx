// The head of the participant list: sub-navigation, the numbers a leader wants at a glance, and
// the filter with the name search (plain GET form).
import { Form } from "@remix-run/react";
import { FILTER_LABELS, LIST_FILTERS, listSearch, MAX_SEARCH_FIELD, referenceNote, type ListQuery } from "~/lib/review-filter";

/** The two lists of an event; the one shown is marked as the current page (not by colour alone). */
export function ListNavigation({ eventId, current }: { eventId: number; current: "participants" | "helpers" }) {
  const mark = (list: typeof current) => (list === current ? ({ "aria-current": "page", className: "active" } as const) : {});
  return (
    <nav aria-label="Listen der Veranstaltung" className="sub-nav">
      <a href={`/freizeit/participants/${eventId}`} {...mark("participants")}>
        Teilnehmer*innen-Liste
      </a>
      <a href={`/freizeit/helper/${eventId}`} {...mark("helpers")}>
        Mitarbeiter*innen-Liste
      </a>
    </nav>
  );
}

type Counts = {
  capacity: number | null;
  taken: number;
  free: number | null;
  openDecisions: number;
  unpaid: number;
  waiting: number;
};

export function ListNumbers({ counts }: { counts: Counts }) {
  const items: [string, string | number][] = [
    ["Plätze", counts.capacity ?? "unbegrenzt"],
    ["Belegt", counts.taken],
    ["Frei", counts.free ?? "–"],
    ["Offene Entscheidungen", counts.openDecisions],
    ["Unbezahlt", counts.unpaid],
    ["Warteliste", counts.waiting],
  ];
  return (
    <dl className="review-numbers" aria-label="Auf einen Blick">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          {/* A word in place of a number ("unbegrenzt") in a smaller type: a phone's card is narrow. */}
          <dd className={typeof value === "string" ? "word" : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ListFilterForm({ eventId, query }: { eventId: number; query: ListQuery }) {
  const note = referenceNote(query.search, eventId);
  return (
    <>
      <Form method="get" action={`/freizeit/participants/${eventId}`} className="review-filter" role="search">
        <div className="field">
          <label htmlFor="filter">Anzeigen</label>
          <select id="filter" name="filter" defaultValue={query.filter} key={query.filter}>
            {LIST_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        <div className="field search-field">
          <label htmlFor="suche">Name oder Verwendungszweck</label>
          <input id="suche" name="suche" type="search" defaultValue={query.search} key={query.search} maxLength={MAX_SEARCH_FIELD} aria-describedby={note ? "suche-verwendungszweck" : undefined} />
        </div>
        <div className="actions">
          <button type="submit">Filtern</button>
          {query.filter !== "alle" || query.search ? (
            <a href={`/freizeit/participants/${eventId}`} className="button secondary">
              Filter zurücksetzen
            </a>
          ) : null}
        </div>
      </Form>
      {note ? (
        <p id="suche-verwendungszweck" className="hint review-reference">
          <WithReferences text={note} />
        </p>
      ) : null}
    </>
  );
}

/** A text with transfer references, each kept on one line (a reference broken after "LF-" is
 * easily misread against a bank statement). */
export function WithReferences({ text }: { text: string }) {
  return (
    <>
      {text.split(/(LF-\d+-A\d+)/).map((part, i) =>
        i % 2 ? (
          <span key={i} className="reference">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** Pages of a long list, as plain links that keep the filter and the search. */
export function ListPager({ eventId, query, paging }: { eventId: number; query: ListQuery; paging: { page: number; pageCount: number; matching: number } }) {
  if (paging.pageCount <= 1) return null;
  const href = (page: number) => `/freizeit/participants/${eventId}${listSearch({ ...query, page })}`;
  return (
    <nav aria-label="Seiten der Liste" className="pager actions">
      {paging.page > 1 ? (
        <a href={href(paging.page - 1)} className="button secondary">
          Vorherige Seite
        </a>
      ) : null}
      <span>
        Seite {paging.page} von {paging.pageCount} ({paging.matching} Anmeldungen)
      </span>
      {paging.page < paging.pageCount ? (
        <a href={href(paging.page + 1)} className="button secondary">
          Nächste Seite
        </a>
      ) : null}
    </nav>
  );
}
