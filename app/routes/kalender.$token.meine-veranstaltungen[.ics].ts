// The personal calendar feed 'Meine Veranstaltungen' under its secret address (no sign-in: a
// calendar program fetches it). An unknown or replaced address is 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { calendarResponse, personalFeed } from "~/models/calendar.server";
import { NOT_FOUND_TEXT } from "~/services/permissions.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const ics = personalFeed(params.token ?? "");
  if (ics === null) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  return calendarResponse(ics, "Meine Veranstaltungen.ics", "private, no-store");
}
