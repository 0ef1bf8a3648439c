// The personal calendar feed on /account: 'Meine Veranstaltungen' as a calendar subscription under
// a secret address, shown once when it is made; a new one replaces it.
import { Form } from "@remix-run/react";

export function CalendarFeed({ active }: { active: boolean }) {
  return (
    <section aria-labelledby="calendar-feed-title" className="panel calendar-feed">
      <h2 id="calendar-feed-title">Kalender-Abo</h2>
      <p>
        Deine Veranstaltungen (Meine Veranstaltungen) als Abo in deinem Kalender: Die Adresse ist geheim und wird nur einmal
        angezeigt, direkt nach dem Erzeugen.
      </p>
      {active ? (
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
