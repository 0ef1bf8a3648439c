// POST /account/kalender: a new secret address for the personal calendar feed (the old one stops
// working). The address is shown once, in the flash message on /account: only its hash is kept.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { replaceCalendarFeed } from "~/models/calendar.server";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";

export async function loader() {
  return redirect("/account");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  await readForm(request);
  const address = replaceCalendarFeed(user.id);
  return redirectWithFlash(
    "/account",
    { kind: "success", title: "Neue Kalender-Adresse", message: `Trage diese Adresse in deinem Kalender als Abo ein: ${address}` },
    { request },
  );
}
