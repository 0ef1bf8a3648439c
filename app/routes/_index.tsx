import { type LoaderFunctionArgs } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useLoaderData } from "@remix-run/react";
import { EventTile } from "~/components/event-tile";
import { listEvents, type EventFilter } from "~/models/event.server";
import { getUserOrExpired } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUserOrExpired(request);
  const filter: EventFilter = user && new URL(request.url).searchParams.get("filter") === "mine" ? "mine" : "all";
  const { upcoming, past } = listEvents(user, filter);
  return json({
    filter,
    signedIn: user !== null,
    admin: user?.role === "admin",
    upcoming,
    past: user ? past : [],
  });
}

export default function Home() {
  const { filter, signedIn, admin, upcoming, past } = useLoaderData<typeof loader>();
  const viewer = { signedIn, admin };
  return (
    <>
      <h1>{filter === "mine" ? "Meine Veranstaltungen" : "Alle Veranstaltungen"}</h1>
      <nav className="tabs" aria-label="Auswahl">
        <a href="/" className={filter === "all" ? "button" : "button secondary"} aria-current={filter === "all" ? "page" : undefined}>
          Alle Veranstaltungen
        </a>
        {signedIn ? (
          <a
            href="/?filter=mine"
            className={filter === "mine" ? "button" : "button secondary"}
            aria-current={filter === "mine" ? "page" : undefined}
          >
            Meine Veranstaltungen
          </a>
        ) : null}
        {admin ? (
          <a href="/freizeit/create" className="button secondary">
            Neue Veranstaltung anlegen
          </a>
        ) : null}
      </nav>
      {upcoming.length === 0 && past.length === 0 ? <p>Keine Aktivitäten gefunden</p> : null}
      {admin && filter === "all" && upcoming.length === 0 && past.length === 0 ? (
        <p className="hint">
          So beginnst du: <a href="/freizeit/create">Erste Veranstaltung anlegen</a>. Die Veranstaltung erscheint danach hier
          für alle Besucher*innen.
        </p>
      ) : null}
      {upcoming.length > 0 ? (
        <section aria-labelledby="upcoming-title">
          <h2 id="upcoming-title" className="visually-hidden">
            Kommende Veranstaltungen
          </h2>
          <ul className="tiles">
            {upcoming.map((tile) => (
              <EventTile key={tile.id} tile={tile} viewer={viewer} />
            ))}
          </ul>
        </section>
      ) : null}
      {past.length > 0 ? (
        <section aria-labelledby="past-title">
          <h2 id="past-title">{filter === "mine" ? "Besuchte Veranstaltungen" : "Abgeschlossene Veranstaltungen"}</h2>
          <ul className="tiles">
            {past.map((tile) => (
              <EventTile key={tile.id} tile={tile} viewer={viewer} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
