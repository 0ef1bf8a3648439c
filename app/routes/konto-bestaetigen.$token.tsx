// The link of the confirmation mail. Opening it (GET) shows a button; the POST confirms, so
// that a mail scanner that follows links does not use the link up.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useLoaderData } from "@remix-run/react";
import { ExpiredLink } from "~/components/expired-link";
import { confirmEmail } from "~/models/auth.server";
import { isTokenUsable } from "~/models/user-token.server";
import { db } from "~/services/db.server";
import { redirectWithFlash } from "~/services/flash.server";

export const meta: MetaFunction = () => [{ title: "E-Mail-Adresse bestätigen – Lagerfeuer" }];

export function loader({ params }: LoaderFunctionArgs) {
  return json({ usable: isTokenUsable(db, params.token ?? "", "confirm_email") });
}

export async function action({ params }: ActionFunctionArgs) {
  if (!confirmEmail(params.token ?? "")) {
    return json({ failed: true }, { status: 410 });
  }
  return redirectWithFlash("/login", {
    kind: "success",
    title: "E-Mail-Adresse bestätigt",
    message: "Vielen Dank! Sie können sich jetzt anmelden.",
  });
}

export default function ConfirmAccount() {
  const { usable } = useLoaderData<typeof loader>();
  if (!usable) return <ExpiredLink />;
  return (
    <section className="panel narrow" aria-labelledby="confirm-title">
      <h1 id="confirm-title">E-Mail-Adresse bestätigen</h1>
      <p>Ein Klick noch, dann ist Ihr Konto freigeschaltet.</p>
      <Form method="post">
        <button type="submit">E-Mail-Adresse bestätigen</button>
      </Form>
    </section>
  );
}
