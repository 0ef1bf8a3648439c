// Payment of the enrolment form: the method, the SEPA mandate only when it is chosen (issue 9,
// item 4), and the terms with links to read them. The SEPA section says 'Sie', as the spec's
// SEPA dialog does (DECISIONS.md, form of address).
import { ErrorList, useHydrated } from "~/components/forms";
import { formatIban } from "~/lib/iban";
import { valueAt } from "~/lib/enrollment-payload";
import { fieldId, TextField, type Errors, type Values } from "./fields";

type Mandate = { firstName: string; lastName: string; iban: string } | null;

export function PaymentChoice(props: { values: Values; errors: Errors; locked: boolean; action: string; onChange: (method: string) => void }) {
  const { values, errors, locked, action } = props;
  const hydrated = useHydrated();
  const chosen = valueAt(values, "paymentMethod");
  return (
    <fieldset className="choices" id="zahlung" tabIndex={-1} aria-describedby={errors.paymentMethod ? "paymentMethod-error" : undefined}>
      <legend>Zahlungsart*</legend>
      {locked ? <input type="hidden" name="paymentMethod" value="sepa" /> : null}
      <label className="checkbox">
        <input type="radio" id="paymentMethod" name="paymentMethod" value="transfer" defaultChecked={chosen === "transfer"} disabled={locked} onChange={() => props.onChange("transfer")} />{" "}
        Überweisung
      </label>
      <label className="checkbox">
        <input type="radio" name="paymentMethod" value="sepa" defaultChecked={chosen === "sepa"} disabled={locked} onChange={() => props.onChange("sepa")} /> SEPA-Lastschriftmandat
      </label>
      {/* Neutral words here; the SEPA section below says 'Sie' (DECISIONS.md, form of address). */}
      {locked ? <p className="hint">Festgelegt durch das bestehende SEPA-Lastschriftmandat (siehe unten).</p> : null}
      <ErrorList id="paymentMethod-error" errors={errors.paymentMethod} />
      {hydrated || locked ? null : (
        <button type="submit" name="intent" value="refresh-zahlung" formAction={`${action}#zahlung`} formNoValidate className="secondary">
          Weiter
        </button>
      )}
    </fieldset>
  );
}

function Consent({ name, label, values, errors }: { name: string; label: React.ReactNode; values: Values; errors: Errors }) {
  const id = fieldId(name);
  return (
    <>
      <label className="checkbox">
        {/* One span: the label is a flex row, and its text with links must wrap as one. */}
        <input type="checkbox" id={id} name={name} defaultChecked={valueAt(values, name) === "on"} aria-describedby={errors[name] ? `${id}-error` : undefined} /> <span>{label}</span>
      </label>
      <ErrorList id={`${id}-error`} errors={errors[name]} />
    </>
  );
}

/** The mandate's fields in the order of the form (the error summary lists them so too). */
export const SEPA_FIELDS = ["firstName", "lastName", "street", "postalCode", "city", "iban", "consentMandate", "consentPrivacy"];

/** How the error summary names a mandate's field to check (its own message, in 'Sie', stands beside it). */
export const SEPA_FIELD_NAMES: Record<string, string> = {
  firstName: "Vorname",
  lastName: "Nachname",
  street: "Straße und Hausnummer",
  postalCode: "Postleitzahl",
  city: "Ort",
  iban: "IBAN",
  consentMandate: "Zustimmung zum Mandat",
  consentPrivacy: "Zustimmung zur Datenschutzerklärung",
};

type SepaProps = { values: Values; errors: Errors; mandate: Mandate; accountHolder: string; creditorId: string; privacyUrl: string };

export function SepaSection({ values, errors, mandate, accountHolder, creditorId, privacyUrl }: SepaProps) {
  const p = { values, errors };
  const fields = (
    <>
      <div className="field-row">
        <TextField name="sepa.firstName" label="Vorname Kontoinhaber*in" {...p} max={50} autoComplete="given-name" />
        <TextField name="sepa.lastName" label="Nachname Kontoinhaber*in" {...p} max={50} autoComplete="family-name" />
      </div>
      <TextField name="sepa.street" label="Straße und Hausnummer" {...p} max={100} autoComplete="street-address" />
      <div className="field-row">
        <TextField name="sepa.postalCode" label="Postleitzahl" {...p} max={5} autoComplete="postal-code" inputMode="numeric" />
        <TextField name="sepa.city" label="Ort" {...p} max={100} autoComplete="address-level2" />
      </div>
      <TextField name="sepa.iban" label="IBAN" {...p} max={50} />
      <p className="mandate-text">
        Ich ermächtige {accountHolder}, den Teilnahmebeitrag einmalig von meinem Konto mittels Lastschrift einzuziehen. Zugleich weise ich mein Kreditinstitut an,
        die von {accountHolder} auf mein Konto gezogene Lastschrift einzulösen. Hinweis: Ich kann innerhalb von acht Wochen, beginnend mit dem Belastungsdatum, die
        Erstattung des belasteten Betrages verlangen. Es gelten dabei die mit meinem Kreditinstitut vereinbarten Bedingungen.
      </p>
      <p className="hint">
        Gläubiger-Identifikationsnummer von {accountHolder}: {creditorId}. Die Mandatsreferenz steht in Ihrer Anmeldebestätigung.
      </p>
      <Consent name="sepa.consentMandate" label="Ich erteile das SEPA-Lastschriftmandat." {...p} />
      <Consent
        name="sepa.consentPrivacy"
        label={
          <>
            Ich habe die{" "}
            <a href={privacyUrl} target="_blank" rel="noopener noreferrer">
              Datenschutzerklärung
            </a>{" "}
            gelesen und bin mit der Verarbeitung meiner Kontodaten einverstanden.
          </>
        }
        {...p}
      />
    </>
  );
  // A correction already begun (typed, or refused with messages) stays open after the round trip.
  const correcting = SEPA_FIELDS.some((f) => valueAt(values, `sepa.${f}`).trim() !== "" || errors[`sepa.${f}`]) || Boolean(errors.sepa);
  return (
    <fieldset className="panel sepa" id="sepa" aria-describedby={mandate ? undefined : "sepa-hinweis"}>
      <legend>SEPA-Lastschriftmandat</legend>
      {mandate ? (
        <>
          <p>
            Für diese Veranstaltung gibt es schon Ihr SEPA-Lastschriftmandat ({mandate.firstName} {mandate.lastName}, {formatIban(mandate.iban)}); es gilt auch für
            diese Anmeldung.
          </p>
          {/* The correction folded away: a details element, so it opens without JavaScript too. */}
          <details open={correcting}>
            <summary>Mandat korrigieren</summary>
            <p className="hint">Füllen Sie die Felder nur aus, wenn Sie das Mandat korrigieren möchten.</p>
            {fields}
          </details>
        </>
      ) : (
        <>
          {/* Every field is needed: said once, as a star after 'Kontoinhaber*in' would read as part of the word. */}
          <p className="hint" id="sepa-hinweis">
            Alle Angaben und beide Häkchen sind nötig.
          </p>
          {fields}
        </>
      )}
      <ErrorList errors={errors.sepa} />
    </fieldset>
  );
}

/** The terms checkbox; the links open in a new tab, so nothing typed is lost. */
export function TermsConsent({ values, errors, termsUrl, privacyUrl }: { values: Values; errors: Errors; termsUrl: string; privacyUrl: string }) {
  return (
    <Consent
      name="terms"
      label={
        <>
          Ich habe die{" "}
          <a href={termsUrl} target="_blank" rel="noopener noreferrer">
            Teilnahmebedingungen
          </a>{" "}
          und die{" "}
          <a href={privacyUrl} target="_blank" rel="noopener noreferrer">
            Datenschutzerklärung
          </a>{" "}
          gelesen und akzeptiere sie.*
        </>
      }
      values={values}
      errors={errors}
    />
  );
}
