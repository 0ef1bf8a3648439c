import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { forgetShortLivedValues } from "~/services/flash.server";
import { forgetParkedForms } from "~/services/parked-forms.server";
import { endSession, getUser } from "~/services/session.server";

export async function action({ request }: ActionFunctionArgs) {
  // A form kept after the session ran out (decision 0020) goes with the session ended on purpose.
  const user = await getUser(request);
  if (user) forgetParkedForms(user.id);
  const headers = new Headers({ "Set-Cookie": await endSession(request) });
  for (const cleared of await forgetShortLivedValues(request)) headers.append("Set-Cookie", cleared);
  return redirect("/login", { headers });
}

// Logging out is a POST (the header's button); a GET only leads home.
export function loader() {
  return redirect("/");
}
