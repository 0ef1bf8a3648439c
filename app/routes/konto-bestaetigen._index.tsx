// Sending the confirmation link again (from the login page or an expired link).
import { parseWithZod } from "~/services/parse-form.server";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { json } from "~/services/json.server";
import { resendConfirmation } from "~/models/auth.server";
import { resendSchema } from "~/schemas/auth";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: resendSchema });
  if (submission.status !== "success") {
    return json({ error: "Bitte geben Sie eine gültige eMail-Adresse ein" }, { status: 400 });
  }
  resendConfirmation(submission.value.email);
  // The same answer whether or not the address has an unconfirmed account.
  return redirectWithFlash("/login", {
    kind: "info",
    title: "Bestätigungsmail verschickt",
    message: "Falls zu dieser Adresse ein unbestätigtes Konto gehört, ist eine neue Bestätigungsmail unterwegs. Der Link ist 24 Stunden gültig.",
  });
}

export function loader() {
  return redirect("/login");
}
