// Veranstaltungsverwaltung: a compact card per event (a small picture or check icon at the side,
// so that a phone shows many at once); 'Bearbeiten' carries the open decisions ('9 offen', their
// kinds for screen readers, a line above the cards says what it counts) and leads to the event's
// participant list.
import { formatIsoDate } from "~/lib/dates";
import type { AdminEventCard } from "~/models/admin.server";

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the badge counts, in words for screen readers. */
export function openDecisionsText(card: Pick<AdminEventCard, "openRegistrations" | "openHelpers" | "openPayments">) {
  return [
    card.openRegistrations ? plural(card.openRegistrations, "offene Anmeldung", "offene Anmeldungen") : "",
    card.openHelpers ? plural(card.openHelpers, "offene Mitarbeiter*innen-Anmeldung", "offene Mitarbeiter*innen-Anmeldungen") : "",
    card.openPayments ? plural(card.openPayments, "offene Zahlung", "offene Zahlungen") : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** The open decisions of an event, as its badge counts them. */
const openCount = (card: AdminEventCard) => card.openRegistrations + card.openHelpers + card.openPayments;

function AdminEventTile({ card }: { card: AdminEventCard }) {
  const open = openCount(card);
  const dates = `${formatIsoDate(card.dateFrom)}${card.dateTo && card.dateTo !== card.dateFrom ? ` – ${formatIsoDate(card.dateTo)}` : ""}`;
  return (
    <li className={card.past ? "tile admin-event past" : "tile admin-event"}>
      {/* Without a preview picture: the spec's check icon (a background of the stylesheet). */}
      <div className={card.pictureKey ? "picture" : "picture admin-check"}>
        {card.pictureKey ? <img src={`/uploads/pictures/${card.pictureKey}-480.webp`} alt="" width={96} height={54} loading="lazy" decoding="async" /> : null}
      </div>
      <div className="body">
        <h3>
          <a href={`/freizeit/${card.id}`}>{card.title}</a>
        </h3>
        <p className="meta">{dates}</p>
        <div className="actions">
          <a href={`/freizeit/participants/${card.id}`} className="button secondary">
            {/* One piece: at 320 px the badge goes below it, not half the word (screens' review). */}
            <span className="admin-action-label">Bearbeiten</span>
            {open > 0 ? (
              <>
                <span className="badge admin-badge">{`${open} offen`}</span>
                <span className="visually-hidden">{` (${openDecisionsText(card)})`}</span>
              </>
            ) : null}
          </a>
        </div>
      </div>
    </li>
  );
}

function CardSection({ id, title, cards }: { id: string; title: string; cards: AdminEventCard[] }) {
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="tiles admin-event-tiles">
        {cards.map((card) => (
          <AdminEventTile key={card.id} card={card} />
        ))}
      </ul>
    </section>
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
      {/* What the badges count, once for every card (screens' review: only screen readers were
          told; a line on each card made the compact cards half again as tall). */}
      {cards.some((c) => openCount(c) > 0) ? (
        <p className="hint">„offen“ an „Bearbeiten“ zählt die offenen Anmeldungen, Mitarbeiter*innen-Anmeldungen und Zahlungen der Veranstaltung.</p>
      ) : null}
      <CardSection id="admin-upcoming" title="Kommende Veranstaltungen" cards={upcoming} />
      <CardSection id="admin-past" title="Vergangene Veranstaltungen" cards={past} />
    </>
  );
}
