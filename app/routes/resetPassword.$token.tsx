import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "~/services/parse-form.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { INVALID_TOKEN, InvalidResetLink } from "~/components/invalid-reset-link";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FormAlert, PasswordChecklist, PasswordField, useHydrated } from "~/components/forms";
import { checkPassword, meetsPasswordRules } from "~/lib/password-rules";
import { resetPassword } from "~/models/auth.server";
import { isTokenUsable } from "~/models/user-token.server";
import { resetPasswordSchema } from "~/schemas/auth";
import { db } from "~/services/db.server";
import { redirectWithFlash } from "~/services/flash.server";
import { markDevice, readDeviceMarks } from "~/services/device.server";
import { readForm } from "~/services/form.server";
import { logError, requestIdOf } from "~/services/log.server";

export const handle = { hydrate: true };
export const meta: MetaFunction = () => [{ title: "Passwort zurücksetzen – Lagerfeuer" }];

const PASSWORDS = ["password", "confirmPassword"];

export function loader({ params }: LoaderFunctionArgs) {
  return json({ usable: isTokenUsable(db, params.token ?? "", "reset_password") });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  const password = String(formData.get("password") ?? "");
  const confirm = String(formData.get("confirmPassword") ?? "");
  if (submission.status !== "success") {
    // The typed passwords are checked, never sent back (a page a shared computer may keep).
    return json({ result: submission.reply({ hideFields: PASSWORDS }), check: checkPassword(password, confirm), alert: null }, { status: 400 });
  }
  let userId: number | null;
  try {
    userId = await resetPassword(params.token ?? "", submission.value.password);
    if (userId === null) {
      return json({ result: submission.reply({ hideFields: PASSWORDS }), check: null, alert: INVALID_TOKEN }, { status: 410 });
    }
  } catch (error) {
    logError(error, requestIdOf(context), "Passwort nicht zurückgesetzt");
    const alert = { title: "Fehler", message: "Es gab einen Fehler beim Zurücksetzen des Passworts. Bitte versuchen Sie es später erneut." };
    return json({ result: submission.reply({ hideFields: PASSWORDS }), check: null, alert }, { status: 500 });
  }
  // The mailed link proved the mailbox: this browser gets a device mark, so that failures others
  // made on the address (a lock) do not keep its owner out (an attack probe found the lock held).
  const mark = await markDevice(request, await readDeviceMarks(request), userId);
  return redirectWithFlash(
    "/login",
    { kind: "success", title: "Passwort erfolgreich zurückgesetzt!", message: "Sie können sich jetzt mit dem neuen Passwort anmelden." },
    { setCookie: [mark] },
  );
}

export default function ResetPassword() {
  const { usable } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [password, setPassword] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [form, fields] = useForm({ id: "reset", lastResult: data?.result, shouldValidate: "onSubmit" });
  const rulesHold = password !== null && meetsPasswordRules(password) && password === confirm;

  if (!usable && !data?.alert) return <InvalidResetLink />;
  return (
    <section className="panel narrow" aria-labelledby="reset-title">
      <h1 id="reset-title">Passwort zurücksetzen</h1>
      <Form method="post" {...getFormProps(form)} noValidate>
        <FormAlert alert={data?.alert} />
        <PasswordField label="Neues Passwort" meta={fields.password} autoComplete="new-password" onValue={setPassword} describedBy="reset-rules" />
        <PasswordField label="Passwort bestätigen" meta={fields.confirmPassword} autoComplete="new-password" onValue={setConfirm} />
        <PasswordChecklist id="reset-rules" password={password} repeat={confirm} serverCheck={data?.check} showStrength />
        <div className="actions">
          {/* Without JavaScript the server checks the rules; with it the button waits until they hold. */}
          <button type="submit" disabled={(hydrated && !rulesHold) || navigation.state === "submitting"}>
            Passwort speichern
          </button>
        </div>
      </Form>
    </section>
  );
}
