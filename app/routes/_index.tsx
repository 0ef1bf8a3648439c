import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatIsoDate } from "~/lib/dates";
import { listUpcomingEvents } from "~/models/event.server";
import { getUser } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return json({ events: listUpcomingEvents(user) });
}

export default function Home() {
  const { events } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Alle Veranstaltungen</h1>
      {events.length === 0 ? (
        <p>Keine Aktivitäten gefunden</p>
      ) : (
        <ul className="tiles">
          {events.map((event) => (
            <li key={event.id} className="tile">
              <div className="picture placeholder" />
              <div className="body">
                <h2>{event.title}</h2>
                <p className="meta">
                  {formatIsoDate(event.dateFrom)}
                  {event.dateTo && event.dateTo !== event.dateFrom ? ` – ${formatIsoDate(event.dateTo)}` : ""} ·{" "}
                  {event.location}
                </p>
                <p>{event.description.length > 200 ? `${event.description.slice(0, 197)}…` : event.description}</p>
                <div className="actions">
                  <Link to={`/freizeit/${event.id}`} className="button" aria-label={`Ansehen: ${event.title}`}>
                    Ansehen
                  </Link>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
