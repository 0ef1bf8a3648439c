// Form pieces shared by the screens: labelled fields with their errors linked
// (aria-describedby), the spec's toasts as alerts inside the form, the password checklist.
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useEffect, useId, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { showAndFocus } from "~/components/in-page-links";
import { typedDateHint } from "~/lib/dates";
import { checkPassword, PASSWORD_CHECK_LABELS, passwordStrength, type PasswordCheck, type ServerCheck } from "~/lib/password-rules";

/** True once React runs in the browser: controls that need JavaScript show only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- conform infers field types from the form's schema
type AnyField = FieldMetadata<any, any, string[]>;

export type Alert = { title: string; message?: string };

/**
 * The spec's toast as a message at the top of the form (announced to screen readers). With `attempt` (a refused answer's stamp) the page opens at it, as at
 * FormErrors: autofocus without JavaScript, the focus moved here with it; a page of several forms
 * (the account) would otherwise answer at its top, the message a screen or more further down.
 */
export function FormAlert({ alert, kind = "danger", attempt }: { alert: Alert | null | undefined; kind?: "danger" | "info" | "success"; attempt?: number }) {
  const ref = useFocusOnAnswer<HTMLDivElement>(alert ? attempt : null);
  if (!alert) return null;
  const opensHere = attempt !== undefined ? { ref, tabIndex: -1, autoFocus: true } : {};
  return (
    <div role="alert" {...opensHere} className={`flash flash-${kind} form-alert`}>
      <strong>{alert.title}</strong>
      {alert.message ? <p>{alert.message}</p> : null}
    </div>
  );
}

/**
 * The answer to a refused form takes the focus: each new answer (`stamp`) moves it to the element
 * this ref is given (with JavaScript; without it that element has autofocus).
 */
export function useFocusOnAnswer<T extends HTMLElement>(stamp: number | null | undefined) {
  const ref = useRef<T>(null);
  useEffect(() => {
    // Its top in view, as autofocus opens it without JavaScript (focus() alone centred a list
    // taller than a phone's screen, its heading above the top).
    if (stamp !== null && stamp !== undefined && ref.current) showAndFocus(ref.current);
  }, [stamp]);
  return ref;
}

export type FieldErrorLink = { id: string; label: string; errors?: string[] };

/**
 * The answer to a refused form: its alert (the spec's toast, if any) and every field's message as
 * a link to that field, in the form's order. The page opens here: autofocus without JavaScript,
 * focus moved here after each answer (`attempt`) with it.
 */
export function FormErrors({ alert, fields, attempt, lead }: { alert: Alert | null | undefined; fields: FieldErrorLink[]; attempt: number | undefined; lead: string }) {
  const ref = useFocusOnAnswer<HTMLDivElement>(attempt);
  const wrong = fields.filter((field) => field.errors?.length);
  if (!alert && wrong.length === 0) return null;
  return (
    // eslint-disable-next-line jsx-a11y/no-autofocus -- the answer to a refused submit is this list
    <div role="alert" ref={ref} tabIndex={-1} autoFocus className="flash flash-danger form-alert">
      <strong>{alert?.title ?? lead}</strong>
      {alert?.message ? <p>{alert.message}</p> : null}
      {wrong.length ? (
        <ul className="error-links">
          {wrong.map((field) => (
            <li key={field.id}>
              <a href={`#${field.id}`}>
                {field.label}: {field.errors![0]}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-errors">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

type FieldProps = {
  label: ReactNode;
  meta: AnyField;
  type?: "text" | "email" | "password" | "date" | "time" | "tel" | "number";
  hint?: ReactNode;
  /** The value to show, overriding conform's (e.g. an empty password after a failure). */
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
};

/** A labelled input with its errors, linked for screen readers. */
export function Field({ label, meta, type = "text", hint, inputProps }: FieldProps) {
  const hintId = `${meta.id}-hint`;
  const props = getInputProps(meta, { type, ariaDescribedBy: hint ? hintId : undefined });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <input {...props} key={props.key} {...typedDateHint(type)} {...inputProps} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A password input; with JavaScript a button shows and hides what was typed. */
export function PasswordField({
  label,
  meta,
  autoComplete,
  onValue,
  describedBy,
}: {
  label: ReactNode;
  meta: AnyField;
  autoComplete: "current-password" | "new-password";
  onValue?: (value: string) => void;
  describedBy?: string;
}) {
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const props = getInputProps(meta, { type: "password" });
  useEffect(() => {
    // Whatever was typed before the page's script had loaded counts too.
    if (input.current?.value) onValue?.(input.current.value);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only once, at hydration
  }, []);
  const describedByIds = [props["aria-describedby"], describedBy].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <div className="password-input">
        <input
          {...props}
          key={props.key}
          ref={input}
          type={visible ? "text" : "password"}
          autoComplete={autoComplete}
          aria-describedby={describedByIds}
          onInput={(event) => onValue?.(event.currentTarget.value)}
        />
        {hydrated ? (
          <button
            type="button"
            className="secondary toggle"
            aria-controls={meta.id}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? "Verbergen" : "Anzeigen"}
          </button>
        ) : null}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/**
 * The live list of password rules. Without JavaScript it shows the state the server answered
 * with (`serverCheck`), or the plain rules before the first try.
 */
export function PasswordChecklist({
  password,
  repeat,
  serverCheck,
  showStrength = false,
  id,
}: {
  password: string | null;
  repeat: string | null;
  serverCheck?: ServerCheck | null;
  showStrength?: boolean;
  id?: string;
}) {
  // Once either field is typed in, the live check replaces the server's (of a password now gone).
  const check = password !== null || repeat !== null ? checkPassword(password ?? "", repeat ?? "") : serverCheck ?? null;
  const headingId = useId();
  return (
    <div className="password-checklist" id={id}>
      <p id={headingId} className="hint">
        Das Passwort braucht:
      </p>
      <ul aria-labelledby={headingId}>
        {(Object.keys(PASSWORD_CHECK_LABELS) as (keyof PasswordCheck)[]).map((key) => {
          const value = check?.[key];
          const state = value === undefined ? "open" : value ? "ok" : "missing";
          return (
            <li key={key} className={`check-${state}`}>
              <span aria-hidden="true">{state === "ok" ? "✓" : state === "missing" ? "✗" : "•"}</span>{" "}
              {PASSWORD_CHECK_LABELS[key]}
              {state !== "open" ? <span className="visually-hidden">{state === "ok" ? " (erfüllt)" : " (nicht erfüllt)"}</span> : null}
            </li>
          );
        })}
      </ul>
      {showStrength && password !== null ? (
        <p className="strength" aria-live="polite">
          Stärke: <strong className={`strength-${passwordStrength(password)}`}>{passwordStrength(password)}</strong>
        </p>
      ) : null}
    </div>
  );
}

type PlainProps = { id: string; name: string; label: ReactNode; defaultValue: string; errors?: string[]; required?: boolean };

/** Label, control and errors of a field in a form that keeps its own state (no conform). */
function PlainShell({ id, label, required, errors, children }: Pick<PlainProps, "id" | "label" | "required" | "errors"> & { children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? "*" : ""}
      </label>
      {children}
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** What links a control to its errors for screen readers. */
function describedBy(props: PlainProps) {
  const invalid = Boolean(props.errors?.length);
  return { "aria-invalid": invalid || undefined, "aria-describedby": invalid ? `${props.id}-error` : undefined };
}

/** A labelled input for forms that keep their own state: errors linked by id. */
export function PlainInput(props: PlainProps & { type?: string; max?: number; autoComplete?: string }) {
  return (
    <PlainShell {...props}>
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? "text"}
        defaultValue={props.defaultValue}
        maxLength={props.max}
        autoComplete={props.autoComplete ?? "off"}
        {...typedDateHint(props.type)}
        {...describedBy(props)}
      />
    </PlainShell>
  );
}

/**
 * Rows for a text area to show `text` whole on a phone (about 30 characters a line at 320 px),
 * at least `least`, at most 12 (screens' review: a long note showed 3 of its 10 lines).
 */
export function rowsFor(text: unknown, least = 3) {
  const lines = typeof text === "string" ? text.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 30)), 0) : 0;
  return Math.min(12, Math.max(least, lines));
}

/** A labelled text area for forms that keep their own state (a longer note shown whole). */
export function PlainTextArea(props: PlainProps & { max?: number; rows?: number }) {
  return (
    <PlainShell {...props}>
      <textarea id={props.id} name={props.name} defaultValue={props.defaultValue} maxLength={props.max} rows={rowsFor(props.defaultValue, props.rows)} {...describedBy(props)} />
    </PlainShell>
  );
}

/** A labelled select for forms that keep their own state; `empty` adds a first, empty option. */
export function PlainSelect(
  props: PlainProps & {
    options: readonly (readonly [string, string])[];
    empty?: string;
    onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
  },
) {
  return (
    <PlainShell {...props}>
      <select id={props.id} name={props.name} defaultValue={props.defaultValue} onChange={props.onChange} {...describedBy(props)}>
        {props.empty !== undefined ? <option value="">{props.empty}</option> : null}
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </PlainShell>
  );
}
