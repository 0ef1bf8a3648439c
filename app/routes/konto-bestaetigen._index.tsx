// Sending the confirmation link again (from the login page or an expired link). A refused address
// is shown here, next to its field, in a page that works without JavaScript.
import { parseWithZod } from "~/services/parse-form.server";
import { type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { EmailLinkForm } from "~/components/email-link-form";
import { LINKS_THROTTLED, resendConfirmation } from "~/models/auth.server";
import { EMAIL_MAX } from "~/lib/email";
import { clientKey } from "~/services/request.server";
import { resendSchema } from "~/schemas/auth";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { json } from "~/services/json.server";

export const meta: MetaFunction = () => [{ title: "Bestätigungslink anfordern – Lagerfeuer" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: resendSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply(), alert: null }, { status: 400 });
  }
  if (resendConfirmation(submission.value.email, clientKey(context)) === "throttled") {
    return json({ result: submission.reply(), alert: LINKS_THROTTLED }, { status: 429 });
  }
  // The same answer whether or not the address has an unconfirmed account.
  return redirectWithFlash("/login", {
    kind: "info",
    title: "Bestätigungsmail verschickt",
    message: "Falls zu dieser Adresse ein unbestätigtes Konto gehört, ist eine neue Bestätigungsmail unterwegs. Der Link ist 24 Stunden gültig.",
  });
}

/** The form on its own page: reached with an address the server refused, or by its address. */
export function loader() {
  return null;
}

export default function ResendConfirmation() {
  const data = useActionData<typeof action>();
  return (
    <section className="panel narrow" aria-labelledby="resend-title">
      <h1 id="resend-title">Bestätigungslink anfordern</h1>
      <EmailLinkForm id="resend" action="/konto-bestaetigen" lastResult={data?.result} alert={data?.alert ?? null} button="Neuen Link anfordern" maxLength={EMAIL_MAX} />
    </section>
  );
}
