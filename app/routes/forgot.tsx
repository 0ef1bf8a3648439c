import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "~/services/parse-form.server";
import { type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Field, FormAlert } from "~/components/forms";
import { requestPasswordReset } from "~/models/auth.server";
import { forgotSchema } from "~/schemas/auth";
import { readForm } from "~/services/form.server";

export const meta: MetaFunction = () => [{ title: "Passwort vergessen – Lagerfeuer" }];

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: forgotSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply(), sent: false, failed: false }, { status: 400 });
  }
  try {
    requestPasswordReset(submission.value.email);
  } catch (error) {
    console.error(error);
    return json({ result: submission.reply(), sent: false, failed: true }, { status: 500 });
  }
  // The same answer whether or not the address has an account.
  return json({ result: null, sent: true, failed: false });
}

export default function Forgot() {
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({ id: "forgot", lastResult: data?.result, shouldValidate: "onSubmit" });
  return (
    <section className="panel narrow" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Passwort vergessen</h1>
      {data?.sent ? (
        <div role="status" className="flash flash-success">
          <strong>E-Mail unterwegs</strong>
          <p>
            Wenn zu dieser Adresse ein Konto gehört, haben wir Ihnen einen Link zum Zurücksetzen des Passworts geschickt. Der
            Link ist eine Stunde gültig. Bitte schauen Sie auch in Ihrem Spam-Ordner nach.
          </p>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <p>Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir schicken Ihnen einen Link, mit dem Sie ein neues Passwort festlegen.</p>
          <FormAlert
            alert={data?.failed ? { title: "Fehler", message: "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut." } : null}
          />
          <Field label="E-Mail" meta={fields.email} type="email" inputProps={{ autoComplete: "email", maxLength: 254 }} />
          <div className="actions">
            <button type="submit" disabled={navigation.state === "submitting"}>
              Bestätigen
            </button>
            <a href="/login" className="button secondary">
              Abbrechen
            </a>
          </div>
        </Form>
      )}
    </section>
  );
}
