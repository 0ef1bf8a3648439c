// The one-field form that asks for a link by mail (a new password, a new confirmation link): the
// address next to its message, the button, and the way back to the login.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, FormAlert, type Alert } from "~/components/forms";

type Props = {
  id: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  button: string;
  action?: string;
  intro?: ReactNode;
  alert?: Alert | null;
  maxLength: number;
};

export function EmailLinkForm({ id, lastResult, button, action, intro, alert, maxLength }: Props) {
  const navigation = useNavigation();
  const [form, fields] = useForm({ id, lastResult, shouldValidate: "onSubmit" });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate>
      {intro ? <p>{intro}</p> : null}
      <FormAlert alert={alert} />
      <Field label="E-Mail" meta={fields.email} type="email" inputProps={{ autoComplete: "email", maxLength }} />
      <div className="actions">
        <button type="submit" disabled={navigation.state === "submitting"}>
          {button}
        </button>
        <a href="/login" className="button secondary">
          Abbrechen
        </a>
      </div>
    </Form>
  );
}
