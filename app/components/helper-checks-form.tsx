// Nachweise für die Mitarbeit (DECISIONS.md 'Helper checks'): an admin on the account, or a lead
// person on the helper details of their event, records when and by whom the extended police
// certificate was inspected (never a copy), the Juleica with its expiry, and a phone for the
// camp sheet.
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { typedDateHint } from "~/lib/dates";
import { FormErrors } from "./forms";

type Values = {
  policeCertificateCheckedOn: string | null;
  policeCertificateCheckedBy: string | null;
  juleicaNumber: string | null;
  juleicaExpiresOn: string | null;
  phone: string | null;
};
type Errors = Partial<Record<keyof Values, string>>;

function CheckField({ name, label, type = "text", values, errors, hint, maxLength }: { name: keyof Values; label: ReactNode; type?: string; values: Values; errors: Errors; hint?: string; maxLength?: number }) {
  const id = `check-${name}`;
  const error = errors[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        {...typedDateHint(type)}
        defaultValue={values[name] ?? ""}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <ul id={`${id}-error`} className="field-errors">
          <li>{error}</li>
        </ul>
      ) : null}
    </div>
  );
}

/** The fields in the form's order, named for the list of messages (where the legend is not seen). */
const SUMMARY_LABELS: [keyof Values, string][] = [
  ["policeCertificateCheckedOn", "Führungszeugnis eingesehen am"],
  ["policeCertificateCheckedBy", "Führungszeugnis eingesehen von"],
  ["juleicaNumber", "Juleica-Nummer"],
  ["juleicaExpiresOn", "Juleica gültig bis"],
  ["phone", "Telefon"],
];

/**
 * `attempt` is a refused answer's stamp: the page opens at its messages, each a link to its field
 * (the form is a screen or more down the page on a phone).
 */
export function HelperChecksForm({ action, values, errors = {}, attempt }: { action: string; values: Values; errors?: Errors; attempt?: number }) {
  const shared = { values, errors };
  const fields = SUMMARY_LABELS.map(([name, label]) => ({ id: `check-${name}`, label, errors: errors[name] ? [errors[name]!] : [] }));
  return (
    <section className="panel helper-checks" aria-labelledby="helper-checks-title">
      <h2 id="helper-checks-title">Nachweise für die Mitarbeit</h2>
      <p className="hint">Nur eintragen, was eingesehen wurde – keine Kopie des Führungszeugnisses speichern (§72a SGB VIII).</p>
      <FormErrors alert={null} fields={fields} attempt={attempt} lead="Bitte prüfe die markierten Felder." />
      <Form method="post" action={action} noValidate>
        <fieldset>
          <legend>Erweitertes Führungszeugnis</legend>
          <CheckField name="policeCertificateCheckedOn" label="Eingesehen am" type="date" {...shared} />
          <CheckField name="policeCertificateCheckedBy" label="Eingesehen von" maxLength={100} {...shared} />
        </fieldset>
        <fieldset>
          <legend>Juleica</legend>
          <CheckField name="juleicaNumber" label="Juleica-Nummer" maxLength={30} {...shared} />
          <CheckField name="juleicaExpiresOn" label="Gültig bis" type="date" {...shared} />
        </fieldset>
        <CheckField name="phone" label="Telefon (für das Lagerblatt)" type="tel" maxLength={50} {...shared} />
        <button type="submit">Nachweise speichern</button>
      </Form>
    </section>
  );
}
