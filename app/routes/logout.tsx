import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endSession } from "~/services/session.server";

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/login", { headers: { "Set-Cookie": await endSession(request) } });
}

// Logging out is a POST (the header's button); a GET only leads home.
export function loader() {
  return redirect("/");
}
