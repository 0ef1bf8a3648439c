import { getFormProps, useForm } from "@conform-to/react";
import { mismatchAtField, parseWithZod } from "~/services/parse-form.server";
import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Field, FormErrors, PasswordChecklist, PasswordField, type Alert } from "~/components/forms";
import { brokenRules, type ServerCheck } from "~/lib/password-rules";
import { EMAIL_MAX } from "~/lib/email";
import { signUp } from "~/models/auth.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import { EMAIL_HAS_ACCOUNT, SIGNUP_FAILED, SIGNUP_INVALID_EMAIL, SIGNUP_MISMATCH, SIGNUP_TAKEN, signupSchema } from "~/schemas/auth";
import { readForm } from "~/services/form.server";
import { signedUp } from "~/services/flash.server";
import { clientKey } from "~/services/request.server";
import { getUser } from "~/services/session.server";
import { randomToken } from "~/services/tokens.server";
import { logError, requestIdOf } from "~/services/log.server";

export const handle = { hydrate: true };
export const meta: MetaFunction = () => [{ title: "Registrierung – Lagerfeuer" }];
/** The thanks names the address just signed up: the page says no cache may keep it. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/");
  // After a sign-up (post/redirect/get): the thanks, with the address when this browser sent it.
  // The form's one-time key: sent twice, it signs up once (and does not call the address taken).
  if (!new URL(request.url).searchParams.has("gesendet")) return json({ done: null, formKey: randomToken() });
  return json({ done: { email: await signedUp.read(request) }, formKey: null }, { headers: { "Cache-Control": "private, no-store" } });
}

const SIGNUP_THROTTLED: Alert = {
  title: "Registrierung fehlgeschlagen",
  message: "Zu viele Registrierungen von diesem Anschluss. Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: signupSchema });
  const password = String(formData.get("password") ?? "");
  const repeat = String(formData.get("passwordRepeat") ?? "");
  const text = (name: string) => String(formData.get(name) ?? "").slice(0, 200);
  // What the form shows again after a failed try (never the passwords).
  const values = { firstName: text("firstName"), lastName: text("lastName"), email: text("email") };
  if (submission.status !== "success") {
    const invalidEmail = Boolean(submission.error?.email);
    // A repeat left empty has its own message; the mismatch is for two different passwords.
    const mismatch = password !== "" && repeat !== "" && password !== repeat;
    const alert: Alert | null = invalidEmail ? SIGNUP_INVALID_EMAIL : mismatch ? SIGNUP_MISMATCH : null;
    const fieldErrors = mismatchAtField(formData, ["password", "passwordRepeat"], SIGNUP_MISMATCH.title, submission.error);
    return json(
      {
        // Passwords are never sent back into the page; after an invalid address the address goes too.
        result: submission.reply({ hideFields: invalidEmail ? ["email", "password", "passwordRepeat"] : ["password", "passwordRepeat"], ...(fieldErrors && { fieldErrors }) }),
        alert,
        check: invalidEmail ? null : brokenRules(password, repeat),
        values: invalidEmail ? { ...values, email: "" } : values,
        attempt: Date.now(),
      },
      { status: 400 },
    );
  }
  try {
    const outcome = await signUp(submission.value, clientKey(context), submissionKeyOf(formData));
    if (!outcome.ok) {
      const taken = outcome.reason === "taken";
      const [alert, status] = taken ? [SIGNUP_TAKEN as Alert, 409] : [SIGNUP_THROTTLED, 429];
      // A taken address is said at its field too, and the page offers the way to the login.
      const fieldErrors = taken ? { email: [EMAIL_HAS_ACCOUNT] } : undefined;
      return json(
        { result: submission.reply({ hideFields: ["password", "passwordRepeat"], ...(fieldErrors && { fieldErrors }) }), alert, check: null, values, attempt: Date.now(), taken },
        { status },
      );
    }
    return redirect("/signup?gesendet", { headers: { "Set-Cookie": await signedUp.remember(outcome.email, request) } });
  } catch (error) {
    logError(error, requestIdOf(context), "Registrierung nicht gespeichert");
    return json(
      { result: submission.reply({ hideFields: ["password", "passwordRepeat"] }), alert: SIGNUP_FAILED as Alert, check: null, values, attempt: Date.now() },
      { status: 500 },
    );
  }
}

export default function Signup() {
  const { done, formKey } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [password, setPassword] = useState<string | null>(null);
  const [repeat, setRepeat] = useState<string | null>(null);
  useEffect(() => {
    // After each answer the password fields start empty again.
    setPassword(null);
    setRepeat(null);
  }, [data?.attempt]);
  const [form, fields] = useForm({
    id: "signup",
    lastResult: data?.result,
    shouldValidate: "onSubmit",
  });

  if (done) {
    return (
      <section className="panel" aria-labelledby="thanks">
        <h1 id="thanks">Vielen Dank für Ihre Registrierung!</h1>
        <p role="status">
          Wir haben eine Bestätigungsmail an {done.email ? <strong>{done.email}</strong> : "die angegebene Adresse"} gesendet. Bitte bestätigen Sie Ihre
          E-Mail-Adresse über den Link in dieser Mail. Der Link ist 24 Stunden gültig.
        </p>
        <p>Keine Mail bekommen? Bitte schauen Sie auch in Ihrem Spam-Ordner nach.</p>
        <p>
          <a href="/login" className="button">
            Zur Anmeldung
          </a>
        </p>
      </section>
    );
  }

  const values = data?.values;
  return (
    <section className="panel narrow" aria-labelledby="signup-title">
      <h1 id="signup-title">Registrierung</h1>
      {/* A new key after each try: the inputs start again from what the server sent back. */}
      <Form method="post" {...getFormProps(form)} key={data?.attempt ?? "signup"} noValidate>
        {formKey ? <input type="hidden" name="submissionKey" value={formKey} /> : null}
        <FormErrors
          alert={data?.alert}
          attempt={data?.attempt}
          lead="Bitte prüfen Sie Ihre Eingaben."
          fields={[
            { id: fields.firstName.id, label: "Vorname", errors: fields.firstName.errors },
            { id: fields.lastName.id, label: "Nachname", errors: fields.lastName.errors },
            { id: fields.email.id, label: "E-Mail", errors: fields.email.errors },
            { id: fields.password.id, label: "Passwort", errors: fields.password.errors },
            { id: fields.passwordRepeat.id, label: "Passwort wiederholen", errors: fields.passwordRepeat.errors },
          ]}
        />
        {data && "taken" in data && data.taken ? (
          <p>
            Sie haben schon ein Konto? <a href="/login">Zur Anmeldung</a> oder <a href="/forgot">Passwort vergessen?</a>
          </p>
        ) : null}
        <Field label="Vorname*" meta={fields.firstName} inputProps={{ autoComplete: "given-name", maxLength: 50, defaultValue: values?.firstName }} />
        <Field label="Nachname*" meta={fields.lastName} inputProps={{ autoComplete: "family-name", maxLength: 50, defaultValue: values?.lastName }} />
        <Field label="E-Mail*" meta={fields.email} type="email" inputProps={{ autoComplete: "email", maxLength: EMAIL_MAX, defaultValue: values?.email }} />
        <PasswordField
          label="Passwort"
          meta={fields.password}
          autoComplete="new-password"
          onValue={setPassword}
          describedBy="signup-rules"
        />
        <PasswordField label="Passwort wiederholen" meta={fields.passwordRepeat} autoComplete="new-password" onValue={setRepeat} />
        <PasswordChecklist
          id="signup-rules"
          password={password}
          repeat={repeat}
          serverCheck={data?.check as ServerCheck | null | undefined}
        />
        <div className="actions">
          <button type="submit" disabled={navigation.state === "submitting"}>
            Account erstellen
          </button>
          <a href="/" className="button secondary">
            Abbrechen
          </a>
        </div>
      </Form>
    </section>
  );
}
