// The form of creating and editing an event (spec part 1, §2 Create event / Edit event).
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { FILES_TOGETHER_MAX_BYTES, MULTIPART_MAX_BYTES } from "~/lib/upload-limits";
import { INVALID_FORM } from "~/schemas/event";
import { ErrorList, Field, FormErrors, type Alert } from "./forms";

type Person = { id: number; firstName: string; lastName: string };
type StoredAttachment = { id: number; key: string; displayName: string };

export type EventFormDefaults = Record<string, string | string[] | boolean | undefined>;

type Props = {
  id: string;
  admins: Person[];
  /** Offered as lead persons: the admins and the current lead persons, whatever their role. */
  leadCandidates: Person[];
  defaults?: EventFormDefaults;
  lastResult?: SubmissionResult<string[]>;
  alert?: Alert | null;
  fileErrors?: Record<string, string>;
  /** When the server last refused the form: the list of messages takes the focus. */
  attempt?: number;
  submitLabel: string;
  /** Edit only: the current picture and attachments. */
  picture?: { key: string; displayName: string } | null;
  attachments?: StoredAttachment[];
  /** Lead persons can only be changed by admins. */
  canChangeOwners: boolean;
  cancelTo: string;
};

const SETTINGS: [string, string][] = [
  ["noRegistration", "Keine Anmeldung erforderlich"],
  ["tshirtSizeRequired", "T-Shirt-Größe erforderlich"],
  ["swimBadgeRequired", "Schwimmabzeichen erforderlich"],
  ["permitsRequired", "Erlaubnisse erforderlich (Wandern, Schwimmen, Kanu)"],
  ["onlyStaffVisible", "Nur für Mitarbeiter*innen sichtbar"],
];

/** The fields between the picture and the attachments, as the list of messages names them. */
const LISTED = [
  ["description", "Beschreibung"],
  ["dateFrom", "Startdatum"],
  ["timeFrom", "Startzeit"],
  ["dateTo", "Enddatum"],
  ["timeTo", "Endzeit"],
  ["registrationDeadline", "Anmeldeschluss"],
  ["location", "Ort"],
  ["price", "Kosten pro Teilnehmer*in"],
  ["capacity", "Plätze"],
  ["siblingDiscount", "Geschwisterrabatt"],
  ["siblingDiscountAmount", "Geschwisterrabatt in € je weiteres Kind"],
  ["offerHours", "Platzangebot gilt (Stunden)"],
  ["memberRules", "Mögliche Teilnehmer*innen"],
] as const;

/** The message when the form's files together are over the body's limit, else null. */
function filesTooLarge(form: HTMLFormElement | null) {
  const inputs = Array.from(form?.querySelectorAll<HTMLInputElement>('input[type="file"]') ?? []);
  const total = inputs.flatMap((input) => Array.from(input.files ?? [])).reduce((sum, file) => sum + file.size, 0);
  if (total <= FILES_TOGETHER_MAX_BYTES) return null;
  const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));
  return `Die Dateien sind zusammen ${mb(total)} MB groß. Erlaubt sind höchstens ${mb(MULTIPART_MAX_BYTES)} MB auf einmal. Bitte wählen Sie weniger oder kleinere Dateien; weitere Anhänge können Sie danach beim Bearbeiten hinzufügen.`;
}

export function EventForm(props: Props) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: props.id,
    lastResult: props.lastResult,
    defaultValue: props.defaults,
    shouldValidate: "onSubmit",
  });
  const chosen = (name: "ownerIds" | "helperIds") => {
    const value = fields[name].initialValue;
    return new Set((Array.isArray(value) ? value : value ? [value] : []).map(String));
  };
  const checked = (name: string) => {
    const value: unknown = fields[name]?.initialValue;
    return value === "on" || value === "true" || value === true;
  };
  // With JavaScript files over the body's limit together are said at once, and the form is not
  // sent: the server would refuse the body before reading it, and everything typed with it.
  const [tooMuch, setTooMuch] = useState<string | null>(null);
  const fileError = (field: string) =>
    props.fileErrors?.[field] ? [props.fileErrors[field]] : field === "attachments" && tooMuch ? [tooMuch] : undefined;
  const formProps = getFormProps(form);
  const weighFiles = (event: ChangeEvent<HTMLInputElement>) => setTooMuch(filesTooLarge(event.currentTarget.form));
  const send = (event: FormEvent<HTMLFormElement>) => {
    const problem = filesTooLarge(event.currentTarget);
    setTooMuch(problem);
    if (!problem) return formProps.onSubmit(event);
    event.preventDefault();
    event.currentTarget.querySelector<HTMLInputElement>('input[name="attachments"]')?.focus();
  };

  return (
    <Form method="post" encType="multipart/form-data" {...formProps} onSubmit={send} noValidate className="event-form">
      <FormErrors
        alert={props.alert}
        attempt={props.attempt}
        lead={INVALID_FORM}
        fields={[
          { id: fields.title.id, label: "Titel", errors: fields.title.errors },
          { id: `${props.id}-picture`, label: "Foto", errors: fileError("picture") },
          ...LISTED.map(([name, label]) => ({ id: fields[name].id, label, errors: fields[name].errors })),
          { id: `${props.id}-attachments`, label: "Neue Anhänge", errors: fileError("attachments") },
        ]}
      />
      {typeof props.defaults?.submissionKey === "string" ? <input type="hidden" name="submissionKey" value={props.defaults.submissionKey} /> : null}
      <Field label="Titel*" meta={fields.title} inputProps={{ maxLength: 100 }} />

      <div className="field">
        <label htmlFor={`${props.id}-picture`}>Foto</label>
        {props.picture ? (
          <div className="current-picture">
            <img src={`/uploads/pictures/${props.picture.key}-480.webp`} alt="" width={240} />
            <label className="checkbox">
              <input type="checkbox" name="removePicture" /> Foto entfernen
            </label>
          </div>
        ) : null}
        <p className="hint" id={`${props.id}-picture-hint`}>
          JPEG, PNG, WebP oder GIF, höchstens 5 MB.{props.picture ? " Ein neues Foto ersetzt das bisherige." : ""}
        </p>
        <input
          id={`${props.id}-picture`}
          type="file"
          name="picture"
          accept="image/jpeg,image/png,image/webp,image/gif"
          onChange={weighFiles}
          aria-describedby={`${props.id}-picture-hint${fileError("picture") ? ` ${props.id}-picture-error` : ""}`}
          aria-invalid={fileError("picture") ? true : undefined}
        />
        <ErrorList id={`${props.id}-picture-error`} errors={fileError("picture")} />
      </div>

      <div className="field">
        <label htmlFor={fields.description.id}>Beschreibung*</label>
        <textarea {...getTextareaProps(fields.description)} key={fields.description.key} rows={6} maxLength={1500} />
        <ErrorList id={fields.description.errorId} errors={fields.description.errors} />
      </div>

      <div className="field-row">
        <Field label="Startdatum*" meta={fields.dateFrom} type="date" />
        <Field label="Startzeit*" meta={fields.timeFrom} type="time" />
      </div>
      <div className="field-row">
        <Field label="Enddatum" meta={fields.dateTo} type="date" />
        <Field label="Endzeit" meta={fields.timeTo} type="time" />
      </div>
      <Field
        label="Anmeldeschluss"
        meta={fields.registrationDeadline}
        type="date"
        hint="Nach dem Anmeldeschluss sind Anmeldungen weiter möglich, solange Plätze frei sind."
      />
      <Field label="Ort*" meta={fields.location} inputProps={{ maxLength: 100 }} />
      <div className="field-row">
        <Field label="Kosten pro Teilnehmer*in in € *" meta={fields.price} inputProps={{ maxLength: 6, inputMode: "decimal" }} hint="Leer bedeutet kostenlos." />
        <Field label="Plätze" meta={fields.capacity} type="number" inputProps={{ min: 1, max: 10000 }} hint="Leer bedeutet unbegrenzt." />
      </div>
      <Field
        label="Geschwisterrabatt"
        meta={fields.siblingDiscount}
        inputProps={{ maxLength: 50 }}
        hint="Nur ein Hinweis für die Eltern, z. B. „gilt nur für Mitglieder“. Abgezogen wird allein der Betrag im nächsten Feld."
      />
      <div className="field-row">
        <Field
          label="Geschwisterrabatt in € je weiteres Kind"
          meta={fields.siblingDiscountAmount}
          inputProps={{ maxLength: 6, inputMode: "decimal" }}
          hint="Dieser Betrag wird bei der Anmeldung vom Preis jedes weiteren Kindes abgezogen. Leer oder 0 bedeutet kein Rabatt – dann bleibt auch der Hinweis leer."
        />
        <Field
          label="Platzangebot gilt (Stunden)"
          meta={fields.offerHours}
          type="number"
          inputProps={{ min: 6, max: 168 }}
          hint="So lange wird ein frei gewordener Platz für das erste Kind der Warteliste freigehalten (6 bis 168)."
        />
      </div>
      <Field label="Mögliche Teilnehmer*innen" meta={fields.memberRules} inputProps={{ maxLength: 200 }} />

      <fieldset className="choices">
        <legend>{props.canChangeOwners ? "Leitung*" : "Leitung"}</legend>
        {props.canChangeOwners ? (
          <>
            <input type="hidden" name="ownersShown" value="1" />
            {props.leadCandidates.map((person) => (
              <label key={person.id} className="checkbox">
                <input type="checkbox" name="ownerIds" value={person.id} defaultChecked={chosen("ownerIds").has(String(person.id))} />{" "}
                {person.firstName} {person.lastName}
              </label>
            ))}
          </>
        ) : (
          <>
            <p>{leadNames(props.leadCandidates, chosen("ownerIds")) || "Noch niemand eingetragen."}</p>
            <p className="hint">Die Leitung kann nur ein Admin ändern.</p>
          </>
        )}
      </fieldset>

      <fieldset className="choices">
        <legend>Mitarbeiter*innen</legend>
        <p className="hint">Hier lassen sich Admins eintragen. Wer sich als Helfer*in beworben hat, wird in der Mitarbeiter*innen-Liste angenommen und bleibt beim Speichern dabei.</p>
        {props.admins.map((person) => (
          <label key={person.id} className="checkbox">
            <input type="checkbox" name="helperIds" value={person.id} defaultChecked={chosen("helperIds").has(String(person.id))} />{" "}
            {person.firstName} {person.lastName}
          </label>
        ))}
      </fieldset>

      <fieldset className="choices">
        <legend>Anhänge</legend>
        {props.attachments?.length ? (
          <ul className="attachment-edit">
            {props.attachments.map((file) => (
              <li key={file.id}>
                <label htmlFor={`attachment-${file.id}`}>Anzeigename</label>
                <input id={`attachment-${file.id}`} type="text" name={`attachmentName-${file.id}`} defaultValue={file.displayName} maxLength={150} />
                <label className="checkbox">
                  <input type="checkbox" name="removeAttachment" value={file.id} /> Entfernen
                  <span className="visually-hidden">: {file.displayName}</span>
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <label htmlFor={`${props.id}-attachments`}>Neue Anhänge</label>
        <p className="hint" id={`${props.id}-attachments-hint`}>
          Bilder, Textdateien oder PDF, je höchstens 10 MB, mit dem Foto zusammen höchstens 60 MB. Bis zu 20 Dateien auf einmal sind möglich.
        </p>
        <input
          id={`${props.id}-attachments`}
          type="file"
          name="attachments"
          multiple
          onChange={weighFiles}
          accept="image/*,text/plain,application/pdf"
          aria-describedby={`${props.id}-attachments-hint${fileError("attachments") ? ` ${props.id}-attachments-error` : ""}`}
          aria-invalid={fileError("attachments") ? true : undefined}
        />
        <ErrorList id={`${props.id}-attachments-error`} errors={fileError("attachments")} />
      </fieldset>

      <fieldset className="choices">
        <legend>Einstellungen</legend>
        {SETTINGS.map(([name, label]) => (
          <label key={name} className="checkbox">
            <input {...getInputProps(fields[name], { type: "checkbox" })} defaultChecked={checked(name)} /> {label}
          </label>
        ))}
      </fieldset>

      <div className="actions">
        <button type="submit" disabled={navigation.state === "submitting"}>
          {props.submitLabel}
        </button>
        <a href={props.cancelTo} className="button secondary">
          Abbrechen
        </a>
      </div>
    </Form>
  );
}

/** The names of the chosen lead persons, for someone who may not change them. */
function leadNames(people: Person[], chosenIds: Set<string>) {
  return people
    .filter((person) => chosenIds.has(String(person.id)))
    .map((person) => `${person.firstName} ${person.lastName}`)
    .join(", ");
}
