// /freizeit/{id}/kalender.ics: the event as a calendar file, for everyone who may see the event
// (a staff-only event: 404 for everyone else).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { calendarResponse, eventCalendar } from "~/models/calendar.server";
import { NOT_FOUND_TEXT } from "~/services/permissions.server";
import { getUser } from "~/services/session.server";
import { idFrom } from "~/lib/ids";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const file = eventCalendar(idFrom(params.id) ?? 0, user);
  if (!file) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  return calendarResponse(file.ics, `${file.title}.ics`, "private, no-cache");
}
