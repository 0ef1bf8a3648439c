// POST /account/kalender: a new secret address for the personal calendar feed (the old one stops
// working). Only its hash is stored, so the address is shown right after it is made: the redirect
// carries it in a short-lived cookie to the account page's 'Kalender-Abo', for this account only.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { CALENDAR_ANCHOR } from "~/components/calendar-feed";
import { replaceCalendarFeed } from "~/models/calendar.server";
import { rememberCalendarToken } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";

export async function loader() {
  return redirect("/account");
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  await readForm(request);
  const user = await requireUser(request); // again once the body is in: a right taken meanwhile counts
  const token = replaceCalendarFeed(user.id);
  return redirect(`/account#${CALENDAR_ANCHOR}`, { headers: { "Set-Cookie": await rememberCalendarToken(user.id, token, request) } });
}
