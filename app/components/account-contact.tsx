// Tab 'Deine Kontaktdaten' of the account page: names, e-mail, one's own phone for the camp sheet,
// password, deleting the account.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { Field, FormAlert, FormErrors, PasswordChecklist, PasswordField, type Alert } from "./forms";
import type { ServerCheck } from "~/lib/password-rules";

export type AccountActionData = { intent: string | null; result: unknown; alert: Alert; attempt?: number; check?: ServerCheck | null } | undefined;

type Props = {
  account: { id: number; firstName: string; lastName: string; email: string };
  /** One's own phone (only on /account; admins enter it with the helper checks). */
  phone?: string | null;
  self: boolean;
  confirmDelete: boolean;
  actionData: AccountActionData;
  /** More of the account (the calendar feed), before deleting it, which comes last. */
  children?: ReactNode;
};

function resultFor(data: AccountActionData, intent: string) {
  return data?.intent === intent ? (data.result as SubmissionResult<string[]>) : undefined;
}

export function AccountContact({ account, phone, self, confirmDelete, actionData, children }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const alertFor = (intent: string) => (actionData?.intent === intent ? actionData.alert : null);
  const [namesForm, names] = useForm({
    id: "names",
    lastResult: resultFor(actionData, "names"),
    defaultValue: { firstName: account.firstName, lastName: account.lastName },
    shouldValidate: "onSubmit",
  });
  const [emailForm, email] = useForm({
    id: "email",
    lastResult: resultFor(actionData, "email"),
    defaultValue: { email: account.email },
    shouldValidate: "onSubmit",
  });
  const [phoneForm, phoneFields] = useForm({
    id: "phone",
    lastResult: resultFor(actionData, "phone"),
    defaultValue: { phone: phone ?? "" },
    shouldValidate: "onSubmit",
  });
  // A new page (the redirect after a change) draws the password form anew: empty, its checklist
  // too. Kept, a hydrated page showed both passwords after they were changed.
  const { key: pageKey } = useLocation();

  return (
    <>
      <section className="panel account-section" aria-labelledby="names-title">
        <h2 id="names-title">Name</h2>
        <Form method="post" {...getFormProps(namesForm)} noValidate>
          <FormAlert alert={alertFor("names")} attempt={actionData?.attempt} />
          <input type="hidden" name="intent" value="names" />
          <Field label="Vorname" meta={names.firstName} inputProps={{ autoComplete: self ? "given-name" : "off", maxLength: 50 }} />
          <Field label="Nachname" meta={names.lastName} inputProps={{ autoComplete: self ? "family-name" : "off", maxLength: 50 }} />
          <button type="submit" disabled={busy}>
            Name speichern
          </button>
        </Form>
      </section>

      <section className="panel account-section" aria-labelledby="email-title">
        <h2 id="email-title">E-Mail</h2>
        <Form method="post" {...getFormProps(emailForm)} noValidate>
          <FormAlert alert={alertFor("email")} attempt={actionData?.attempt} />
          <input type="hidden" name="intent" value="email" />
          <Field
            label="E-Mail"
            meta={email.email}
            type="email"
            hint={self ? "Die neue Adresse gilt, sobald du den Link bestätigst, den wir an deine bisherige Adresse schicken." : undefined}
            inputProps={{ autoComplete: self ? "email" : "off", maxLength: 50 }}
          />
          <button type="submit" disabled={busy}>
            E-Mail ändern
          </button>
        </Form>
      </section>

      {self ? (
        <section className="panel account-section" aria-labelledby="phone-title">
          <h2 id="phone-title">Telefon</h2>
          <Form method="post" {...getFormProps(phoneForm)} noValidate>
            <FormAlert alert={alertFor("phone")} attempt={actionData?.attempt} />
            <input type="hidden" name="intent" value="phone" />
            <Field
              label="Telefon (für das Lagerblatt)"
              meta={phoneFields.phone}
              type="tel"
              hint="Wenn du als Helfer*in dabei bist, steht diese Nummer auf dem Lagerblatt deiner Gruppe. Leer lassen, um sie zu löschen."
              inputProps={{ autoComplete: "tel", maxLength: 50 }}
            />
            <button type="submit" disabled={busy}>
              Telefon speichern
            </button>
          </Form>
        </section>
      ) : null}

      {self ? (
        <section className="panel account-section" aria-labelledby="password-title">
          <h2 id="password-title">Passwort ändern</h2>
          <PasswordChange
            key={pageKey}
            lastResult={resultFor(actionData, "password")}
            alert={alertFor("password")}
            check={actionData?.intent === "password" ? actionData.check : null}
            attempt={actionData?.attempt}
            busy={busy}
          />
        </section>
      ) : null}

      {children}
      {self ? (
        <section className="panel account-section danger-zone" aria-labelledby="delete-title">
          <h2 id="delete-title">Konto löschen</h2>
          <FormAlert alert={alertFor("delete")} attempt={actionData?.attempt} />
          {confirmDelete ? (
            <Form method="post" action="/account">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="confirm" value="ja" />
              <p id="delete-warning">
                Möchtest du dein Konto wirklich löschen? Deine Teilnehmer*innen, Erziehungsberechtigten, SEPA-Mandate und
                Anmeldungen werden ebenfalls gelöscht. Diese Aktion kann nicht rückgängig gemacht werden.
              </p>
              <div className="actions">
                <button type="submit" className="danger" aria-describedby="delete-warning" disabled={busy}>
                  Konto endgültig löschen
                </button>
                {/* Links that stay on this page keep what was typed in the other forms (JavaScript). */}
                <Link to="/account" className="button secondary" preventScrollReset>
                  Abbrechen
                </Link>
              </div>
            </Form>
          ) : (
            <p>
              <Link to="/account?loeschen=1#delete-title" className="button danger" preventScrollReset>
                Konto löschen
              </Link>
            </p>
          )}
        </section>
      ) : null}
    </>
  );
}

type PasswordChangeProps = { lastResult: SubmissionResult<string[]> | undefined; alert: Alert | null; check?: ServerCheck | null; attempt?: number; busy: boolean };

function PasswordChange({ lastResult, alert, check, attempt, busy }: PasswordChangeProps) {
  const [passwordForm, password] = useForm({ id: "password", lastResult, shouldValidate: "onSubmit" });
  const [newPassword, setNewPassword] = useState<string | null>(null);
  const [newRepeat, setNewRepeat] = useState<string | null>(null);
  const fields = [
    { id: password.currentPassword.id, label: "Aktuelles Passwort", errors: password.currentPassword.errors },
    { id: password.newPassword.id, label: "Neues Passwort", errors: password.newPassword.errors },
    { id: password.newPasswordRepeat.id, label: "Neues Passwort wiederholen", errors: password.newPasswordRepeat.errors },
  ];
  const anyWrong = fields.some((field) => field.errors?.length);
  return (
    <Form method="post" {...getFormProps(passwordForm)} noValidate>
      {/* Every wrong field as a link (a wrong current password and a weak new one together); the
          alert's own message only where no field carries one. Only as the answer to this form:
          another form's answer leaves it (and the focus) alone. */}
      <FormErrors
        alert={alert && (anyWrong ? { title: alert.title } : alert)}
        attempt={alert ? attempt : undefined}
        lead="Fehler beim Ändern"
        fields={alert ? fields : []}
      />
      <input type="hidden" name="intent" value="password" />
      <PasswordField label="Aktuelles Passwort" meta={password.currentPassword} autoComplete="current-password" />
      <PasswordField
        label="Neues Passwort"
        meta={password.newPassword}
        autoComplete="new-password"
        onValue={setNewPassword}
        describedBy="account-password-rules"
      />
      <PasswordField label="Neues Passwort wiederholen" meta={password.newPasswordRepeat} autoComplete="new-password" onValue={setNewRepeat} />
      <PasswordChecklist id="account-password-rules" password={newPassword} repeat={newRepeat} serverCheck={check} />
      <button type="submit" disabled={busy}>
        Passwort ändern
      </button>
    </Form>
  );
}
