import { parseWithZod } from "~/services/parse-form.server";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EMAIL_MAX } from "~/lib/email";
import { EmailLinkForm } from "~/components/email-link-form";
import { LINKS_THROTTLED, requestPasswordReset } from "~/models/auth.server";
import { clientKey } from "~/services/request.server";
import { forgotSchema } from "~/schemas/auth";
import { readForm } from "~/services/form.server";
import { logError, requestIdOf } from "~/services/log.server";

export const meta: MetaFunction = () => [{ title: "Passwort vergessen – Lagerfeuer" }];

/** After a request (post/redirect/get): `?gesendet=1` shows that the mail is on its way. */
export function loader({ request }: LoaderFunctionArgs) {
  return json({ sent: new URL(request.url).searchParams.has("gesendet") });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: forgotSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply(), failed: false, alert: null }, { status: 400 });
  }
  try {
    if (requestPasswordReset(submission.value.email, clientKey(context)) === "throttled") {
      return json({ result: submission.reply(), failed: false, alert: LINKS_THROTTLED }, { status: 429 });
    }
  } catch (error) {
    logError(error, requestIdOf(context), "Links zum Zurücksetzen nicht verschickt");
    return json({ result: submission.reply(), failed: true, alert: null }, { status: 500 });
  }
  // The same answer whether or not the address has an account (or has had its links this hour).
  return redirect("/forgot?gesendet=1");
}

export default function Forgot() {
  const { sent } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <section className="panel narrow" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Passwort vergessen</h1>
      {sent && !data ? (
        <div role="status" className="flash flash-success">
          <strong>E-Mail unterwegs</strong>
          <p>
            Wenn zu dieser Adresse ein Konto gehört, haben wir Ihnen einen Link zum Zurücksetzen des Passworts geschickt. Der
            Link ist eine Stunde gültig. Bitte schauen Sie auch in Ihrem Spam-Ordner nach.
          </p>
        </div>
      ) : (
        <EmailLinkForm
          id="forgot"
          lastResult={data?.result}
          button="Bestätigen"
          maxLength={EMAIL_MAX}
          intro="Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir schicken Ihnen einen Link, mit dem Sie ein neues Passwort festlegen."
          alert={data?.alert ?? (data?.failed ? { title: "Fehler", message: "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut." } : null)}
        />
      )}
    </section>
  );
}
