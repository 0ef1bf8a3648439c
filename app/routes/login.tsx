import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "~/services/parse-form.server";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { Field, FormAlert, PasswordField, type Alert } from "~/components/forms";
import { LOGIN_FAILED, LOGIN_INCOMPLETE, loginSchema, safeRedirect } from "~/schemas/auth";
import { readForm } from "~/services/form.server";
import { clientKey } from "~/services/request.server";
import { getUser } from "~/services/session.server";
import { signIn } from "~/services/sign-in.server";

export const handle = { hydrate: true };
export const meta: MetaFunction = () => [{ title: "Anmelden – Lagerfeuer" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo")));
  return null;
}

const THROTTLED: Alert = {
  title: "Zu viele Anmeldeversuche",
  message: "Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.",
};
const BANNED: Alert = {
  title: "Da hat etwas nicht geklappt",
  message: "Dieses Konto ist deaktiviert. Bitte wenden Sie sich an den Verein.",
};
const UNCONFIRMED: Alert = {
  title: "E-Mail-Adresse noch nicht bestätigt",
  message: "Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse über den Link, den wir Ihnen geschickt haben.",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: loginSchema });
  const fail = (alert: Alert, status: number, unconfirmedEmail: string | null = null) =>
    json(
      { result: submission.reply({ hideFields: ["email", "password"] }), alert, unconfirmedEmail, attempt: Date.now() },
      { status },
    );
  if (submission.status !== "success") {
    // A field left empty is asked for; anything else the schema refuses (far too long) is wrong.
    const missing = ["email", "password"].some((name) => !String(formData.get(name) ?? "").trim());
    return fail(missing ? LOGIN_INCOMPLETE : LOGIN_FAILED, 400);
  }
  const { email, password, redirectTo } = submission.value;
  const outcome = await signIn(request, { email, password }, clientKey(context));
  if (!outcome.ok) {
    switch (outcome.reason) {
      case "throttled":
        return fail(THROTTLED, 429);
      case "banned":
        return fail(BANNED, 403);
      case "unconfirmed":
        return fail(UNCONFIRMED, 403, outcome.email);
      default:
        return fail(LOGIN_FAILED, 401);
    }
  }
  const headers = new Headers();
  for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  return redirect(safeRedirect(redirectTo), { headers });
}

export default function Login() {
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({ id: "login", lastResult: data?.result, shouldValidate: "onSubmit" });
  return (
    <section className="panel narrow" aria-labelledby="login-title">
      <h1 id="login-title">Anmelden</h1>
      <Form method="post" {...getFormProps(form)} key={data?.attempt ?? "login"} noValidate>
        <FormAlert alert={data?.alert} />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <Field label="E-Mail" meta={fields.email} type="email" inputProps={{ autoComplete: "username", defaultValue: "" }} />
        <PasswordField label="Passwort" meta={fields.password} autoComplete="current-password" />
        <div className="actions">
          <button type="submit" disabled={navigation.state === "submitting"}>
            Anmelden
          </button>
        </div>
      </Form>
      {data?.unconfirmedEmail ? (
        <Form method="post" action="/konto-bestaetigen" className="inline-form">
          <input type="hidden" name="email" value={data.unconfirmedEmail} />
          <p>Keine Mail bekommen oder der Link ist abgelaufen?</p>
          <button type="submit" className="secondary">
            Bestätigungsmail erneut senden
          </button>
        </Form>
      ) : null}
      <ul className="link-list">
        <li>
          <a href="/forgot">Passwort vergessen?</a>
        </li>
        <li>
          <a href="/signup">Benutzerkonto anlegen</a>
        </li>
        <li>
          <a href="/">Abbrechen</a>
        </li>
      </ul>
    </section>
  );
}
