// The personal calendar feed on /account: 'Meine Veranstaltungen' as a calendar subscription under
// a secret address, shown here for a few minutes after it is made (only its hash is stored); a new
// one replaces it.
import { Form } from "@remix-run/react";

export const CALENDAR_ANCHOR = "kalender-abo";

export function CalendarFeed({ active, address }: { active: boolean; address: string | null }) {
  return (
    <section id={CALENDAR_ANCHOR} aria-labelledby="calendar-feed-title" className="panel calendar-feed">
      <h2 id="calendar-feed-title">Kalender-Abo</h2>
      <p>
        Deine Veranstaltungen (Meine Veranstaltungen) als Abo in deinem Kalender: Die Adresse ist geheim und wird nur direkt nach
        dem Erzeugen angezeigt.
      </p>
      {address ? (
        <div role="status" className="calendar-address">
          <label htmlFor="kalender-adresse">Deine neue Kalender-Adresse – trage sie jetzt in deinem Kalender als Abo ein:</label>
          <textarea id="kalender-adresse" readOnly rows={4} value={address} spellCheck={false} />
          <p>
            <a href={address.replace(/^https?:/, "webcal:")}>Im Kalender öffnen</a>
          </p>
        </div>
      ) : active ? (
        <p className="hint">Eine Kalender-Adresse ist eingerichtet. Eine neue Adresse ersetzt sie; die alte funktioniert dann nicht mehr.</p>
      ) : null}
      <Form method="post" action="/account/kalender">
        <button type="submit" className="secondary">
          {active ? "Neue Kalender-Adresse erzeugen" : "Kalender-Adresse erzeugen"}
        </button>
      </Form>
    </section>
  );
}
