import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { forgetShortLivedValues } from "~/services/flash.server";
import { endSession } from "~/services/session.server";

export async function action({ request }: ActionFunctionArgs) {
  const headers = new Headers({ "Set-Cookie": await endSession(request) });
  for (const cleared of await forgetShortLivedValues(request)) headers.append("Set-Cookie", cleared);
  return redirect("/login", { headers });
}

// Logging out is a POST (the header's button); a GET only leads home.
export function loader() {
  return redirect("/");
}
