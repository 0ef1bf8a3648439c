// The enrolment form's fields: each keeps what the server sent back, and its errors are linked.
import type { ChangeEvent } from "react";
import { ErrorList, PlainInput, PlainSelect, rowsFor } from "~/components/forms";
import { valueAt } from "~/lib/enrollment-payload";

export type Errors = Record<string, string[]>;
export type Values = Record<string, unknown>;

/** The id of a field's control, and the target of its link in the error summary. */
export const fieldId = (name: string) => name.replace(/[^\w]/g, "-");

type Common = { name: string; label: string; values: Values; errors: Errors; required?: boolean };

export function TextField(props: Common & { type?: string; max?: number; autoComplete?: string; inputMode?: "numeric" }) {
  const { values, errors, ...rest } = props;
  return <PlainInput {...rest} id={fieldId(props.name)} defaultValue={valueAt(values, props.name)} errors={errors[props.name]} />;
}

export function Select(
  props: Common & { options: [string, string][]; empty?: string; onChange?: (event: ChangeEvent<HTMLSelectElement>) => void; value?: string },
) {
  const { values, errors, value, ...rest } = props;
  return <PlainSelect {...rest} id={fieldId(props.name)} defaultValue={value ?? valueAt(values, props.name)} errors={errors[props.name]} />;
}

export function TextArea({ name, label, values, errors, max, rows = 3 }: Common & { max: number; rows?: number }) {
  const id = fieldId(name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} defaultValue={valueAt(values, name)} maxLength={max} rows={rowsFor(valueAt(values, name), rows)} aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `${id}-error` : undefined} />
      <ErrorList id={`${id}-error`} errors={errors[name]} />
    </div>
  );
}

/** A yes/no answer; the first radio carries the field's id (the error summary links to it). */
export function YesNo({ name, label, values, errors }: Common) {
  const id = fieldId(name);
  const value = valueAt(values, name);
  const describedBy = errors[name] ? `${id}-error` : undefined;
  return (
    <fieldset className="yes-no" aria-describedby={describedBy}>
      <legend>{label}*</legend>
      {/* Ja and Nein on their own row under the question, each a 44-px tap target. */}
      <div className="yes-no-options">
        <label className="checkbox">
          <input type="radio" id={id} name={name} value="ja" defaultChecked={value === "ja"} /> Ja
        </label>
        <label className="checkbox">
          <input type="radio" name={name} value="nein" defaultChecked={value === "nein"} /> Nein
        </label>
      </div>
      <ErrorList id={`${id}-error`} errors={errors[name]} />
    </fieldset>
  );
}

/**
 * Without JavaScript a new choice in a select shows its fields after this round trip; the page
 * comes back at the same box (`anchor`).
 */
export function TakeOverButton({ anchor, action }: { anchor: string; action: string }) {
  return (
    <div className="field align-end">
      <button type="submit" name="intent" value={`refresh-${anchor}`} formAction={`${action}#${anchor}`} formNoValidate className="secondary">
        Auswahl übernehmen
      </button>
    </div>
  );
}
