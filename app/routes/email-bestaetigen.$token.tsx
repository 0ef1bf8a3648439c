// The link mailed to the old address confirms an e-mail change (POST, so that link scanners
// do not use it up).
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { isTokenUsable } from "~/models/user-token.server";
import { confirmEmailChange } from "~/models/user.server";
import { SIGNUP_TAKEN } from "~/schemas/auth";
import { db } from "~/services/db.server";
import { redirectWithFlash } from "~/services/flash.server";
import { currentSessionHash, getUser } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "E-Mail-Änderung bestätigen – Lagerfeuer" }];

export function loader({ params }: LoaderFunctionArgs) {
  return json({ usable: isTokenUsable(db, params.token ?? "", "change_email") });
}

export async function action({ params, request }: ActionFunctionArgs) {
  // The browser that confirms stays signed in (if it is the user's); the other sessions end.
  const outcome = confirmEmailChange(params.token ?? "", await currentSessionHash(request));
  if (outcome.status === "changed") {
    // Opened on a browser without the user's session (a phone's mail app, after a logout): the
    // account page would only send them on to the login page, which then says they are not
    // signed in instead of that the change worked.
    const ownBrowser = (await getUser(request))?.id === outcome.userId;
    // Each in the form of address of the page that shows it: the account 'du', the login 'Sie'.
    return redirectWithFlash(ownBrowser ? "/account" : "/login", {
      kind: "success",
      title: "Erfolgreiche Änderung",
      message: ownBrowser
        ? "Deine neue E-Mail-Adresse gilt ab jetzt."
        : `Ihre neue E-Mail-Adresse gilt ab jetzt. Bitte melden Sie sich mit ${outcome.email} an.`,
    });
  }
  return json(
    { alert: outcome.status === "taken" ? { title: "Fehler beim Ändern", message: SIGNUP_TAKEN.message } : null },
    { status: outcome.status === "taken" ? 409 : 410 },
  );
}

export default function ConfirmEmailChange() {
  const { usable } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <section className="panel narrow" aria-labelledby="change-title">
      <h1 id="change-title">E-Mail-Änderung bestätigen</h1>
      <FormAlert alert={data?.alert} />
      {usable ? (
        <Form method="post">
          <p>Bitte bestätige, dass dein Konto ab jetzt die neue E-Mail-Adresse verwendet.</p>
          <button type="submit">Änderung bestätigen</button>
        </Form>
      ) : (
        <>
          <p>Dieser Link ist abgelaufen oder wurde bereits verwendet.</p>
          <p>
            <a href="/account" className="button">
              Zum Konto
            </a>
          </p>
        </>
      )}
    </section>
  );
}
