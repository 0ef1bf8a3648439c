// Veranstaltungsverwaltung: a card per event; 'Bearbeiten' carries the number of open decisions
// and leads to the event's participant list.
import { formatIsoDate } from "~/lib/dates";
import type { AdminEventCard } from "~/models/admin.server";
import { EventPicture } from "./event-tile";

/** The spec's check icon, shown when an event has no preview picture. */
function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" focusable="false" className="admin-check-icon">
      <path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the badge counts, in words for screen readers and as a tooltip. */
export function openDecisionsText(card: Pick<AdminEventCard, "openRegistrations" | "openHelpers" | "openPayments">) {
  return [
    plural(card.openRegistrations, "offene Anmeldung", "offene Anmeldungen"),
    plural(card.openHelpers, "offene Mitarbeiter*innen-Anmeldung", "offene Mitarbeiter*innen-Anmeldungen"),
    plural(card.openPayments, "offene Zahlung", "offene Zahlungen"),
  ].join(", ");
}

function AdminEventTile({ card }: { card: AdminEventCard }) {
  const open = card.openRegistrations + card.openHelpers + card.openPayments;
  const dates = `${formatIsoDate(card.dateFrom)}${card.dateTo && card.dateTo !== card.dateFrom ? ` – ${formatIsoDate(card.dateTo)}` : ""}`;
  return (
    <li className={card.past ? "tile past" : "tile"}>
      <div className="picture">{card.pictureKey ? <EventPicture pictureKey={card.pictureKey} sizes="(min-width: 40rem) 20rem, 100vw" /> : <CheckIcon />}</div>
      <div className="body">
        <h3>
          <a href={`/freizeit/${card.id}`}>{card.title}</a>
        </h3>
        <p className="meta">{dates}</p>
        <div className="actions">
          <a href={`/freizeit/participants/${card.id}`} className="button secondary" title={openDecisionsText(card)}>
            Bearbeiten
            {open > 0 ? (
              <>
                <span className="badge admin-badge" aria-hidden="true">
                  {open}
                </span>
                <span className="visually-hidden"> ({openDecisionsText(card)})</span>
              </>
            ) : null}
          </a>
        </div>
      </div>
    </li>
  );
}

export function AdminEvents({ cards }: { cards: AdminEventCard[] }) {
  const upcoming = cards.filter((c) => !c.past);
  const past = cards.filter((c) => c.past);
  if (cards.length === 0) {
    return (
      <p>
        Noch keine Veranstaltungen vorhanden. <a href="/freizeit/create">Neue Veranstaltung anlegen</a>
      </p>
    );
  }
  return (
    <>
      {upcoming.length ? (
        <section aria-labelledby="admin-upcoming">
          <h2 id="admin-upcoming">Kommende Veranstaltungen</h2>
          <ul className="tiles">
            {upcoming.map((card) => (
              <AdminEventTile key={card.id} card={card} />
            ))}
          </ul>
        </section>
      ) : null}
      {past.length ? (
        <section aria-labelledby="admin-past">
          <h2 id="admin-past">Vergangene Veranstaltungen</h2>
          <ul className="tiles">
            {past.map((card) => (
              <AdminEventTile key={card.id} card={card} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
