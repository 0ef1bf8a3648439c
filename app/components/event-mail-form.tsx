// The event e-mail form (spec §2.9). Without JavaScript it is a plain multipart form with a fixed
// set of attachment rows (a display name and a file input each). With JavaScript the rows appear
// one by one through 'Neuer Anhang', the file input hides behind 'Datei auswählen' / 'Datei
// ändern' with the chosen name shown read-only, 'X' empties a row, and 'E-Mail senden' stays
// disabled until subject and text are filled (docs/decisions/0013-event-mail-and-lists.md).
import { Form, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import type { EventMailAudience } from "~/lib/enums";
import { ATTACHMENT_ROWS, AUDIENCE_LABELS, SUBJECT_MAX, TEXT_MAX, type EventMailFields } from "~/schemas/event-mail";
import { FormAlert, useHydrated, type Alert } from "./forms";

export type EventMailFormData = {
  alert?: Alert;
  errors?: Partial<Record<EventMailFields, string>>;
  fileErrors?: Record<string, string>;
  values?: { subject: string; text: string; audience: string; attachmentNames?: string[]; attachmentRowsUsed?: boolean[] };
};

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <ul id={id} className="field-errors">
      <li>{message}</li>
    </ul>
  ) : null;
}

function AttachmentRow({
  slot,
  hydrated,
  active,
  error,
  name: givenName,
  onRemove,
}: {
  slot: number;
  hydrated: boolean;
  active: boolean;
  error?: string;
  name?: string;
  onRemove: () => void;
}) {
  const file = useRef<HTMLInputElement>(null);
  const name = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState("");
  const remove = () => {
    if (file.current) file.current.value = "";
    if (name.current) name.current.value = "";
    setChosen("");
    onRemove();
  };
  const n = slot + 1;
  return (
    <fieldset className="choices attachment-row" hidden={hydrated && !active}>
      <legend>Anhang {n}</legend>
      <div className="field">
        <label htmlFor={`attachmentName${n}`}>Anzeigename</label>
        <input ref={name} type="text" id={`attachmentName${n}`} name={`attachmentName${n}`} maxLength={150} defaultValue={givenName} />
      </div>
      {hydrated ? (
        <div className="field">
          <label htmlFor={`attachmentFileName${n}`}>Dateiname</label>
          <input type="text" id={`attachmentFileName${n}`} readOnly value={chosen} placeholder="Dateiname" />
        </div>
      ) : null}
      <label htmlFor={`attachment${n}`} className={hydrated ? "button secondary file-button" : "file-label"}>
        {hydrated ? (chosen ? "Datei ändern" : "Datei auswählen") : "Datei auswählen"}
      </label>
      <input
        ref={file}
        id={`attachment${n}`}
        name={`attachment${n}`}
        type="file"
        accept="image/*,text/plain,application/pdf"
        className={hydrated ? "visually-hidden" : undefined}
        aria-describedby={error ? `attachment${n}-error` : undefined}
        onChange={(e) => setChosen(e.currentTarget.files?.[0]?.name ?? "")}
      />
      {hydrated ? (
        <button type="button" className="secondary" aria-label={`Anhang ${n} entfernen`} onClick={remove}>
          X
        </button>
      ) : null}
      <FieldError id={`attachment${n}-error`} message={error} />
    </fieldset>
  );
}

type Props = { eventId: number; counts: Record<EventMailAudience, number>; data?: EventMailFormData; submissionKey: string };

export function EventMailForm({ eventId, counts, data, submissionKey }: Props) {
  const hydrated = useHydrated();
  const sending = useNavigation().state === "submitting";
  const [filled, setFilled] = useState({ subject: Boolean(data?.values?.subject.trim()), text: Boolean(data?.values?.text.trim()) });
  // Rows open: those opened with 'Neuer Anhang', and after a refusal (the route gives each answer a
  // new form) those that had a file, a name or a message.
  const [active, setActive] = useState<boolean[]>(() =>
    Array.from({ length: ATTACHMENT_ROWS }, (_, i) =>
      Boolean(data?.fileErrors?.[`attachment${i + 1}`] || data?.values?.attachmentRowsUsed?.[i] || data?.values?.attachmentNames?.[i]?.trim()),
    ),
  );
  const audience = data?.values?.audience ?? "both";
  const errors = data?.errors ?? {};
  const ready = filled.subject && filled.text;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="event-mail-form"
      noValidate
      onInput={(e) => {
        const form = e.currentTarget;
        const value = (name: string) => String(new FormData(form).get(name) ?? "").trim();
        setFilled({ subject: value("subject") !== "", text: value("text") !== "" });
      }}
    >
      <FormAlert alert={data?.alert} />
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      <div className="field">
        <label htmlFor="subject">Betreff*</label>
        <input
          id="subject"
          name="subject"
          type="text"
          required
          maxLength={SUBJECT_MAX}
          defaultValue={data?.values?.subject}
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={errors.subject ? "subject-error" : undefined}
        />
        <FieldError id="subject-error" message={errors.subject} />
      </div>
      <div className="field">
        <label htmlFor="text">Text*</label>
        <textarea
          id="text"
          name="text"
          rows={6}
          required
          maxLength={TEXT_MAX}
          defaultValue={data?.values?.text}
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={errors.text ? "text-error" : undefined}
        />
        <FieldError id="text-error" message={errors.text} />
      </div>

      <fieldset className="choices audience" aria-describedby={errors.audience ? "audience-error" : undefined}>
        <legend>Empfänger*innen</legend>
        {(Object.keys(AUDIENCE_LABELS) as EventMailAudience[]).map((key) => (
          <label key={key} className="checkbox choice">
            <input type="radio" name="audience" value={key} defaultChecked={audience === key} />
            {AUDIENCE_LABELS[key]} ({counts[key] === 1 ? "1 Adresse" : `${counts[key]} Adressen`})
          </label>
        ))}
        <FieldError id="audience-error" message={errors.audience} />
      </fieldset>

      <fieldset className="choices attachments">
        <legend>Anhänge</legend>
        <p className="hint">Bilder, Textdateien und PDF, je höchstens 10 MB, zusammen höchstens 20 MB.</p>
        {Array.from({ length: ATTACHMENT_ROWS }, (_, slot) => (
          <AttachmentRow
            key={slot}
            slot={slot}
            hydrated={hydrated}
            active={active[slot]}
            error={data?.fileErrors?.[`attachment${slot + 1}`]}
            name={data?.values?.attachmentNames?.[slot]}
            onRemove={() => setActive((rows) => rows.map((on, i) => (i === slot ? false : on)))}
          />
        ))}
        {hydrated ? (
          <button
            type="button"
            className="secondary"
            disabled={active.every(Boolean)}
            onClick={() => setActive((rows) => rows.map((on, i) => on || i === rows.indexOf(false)))}
          >
            Neuer Anhang
          </button>
        ) : null}
      </fieldset>

      <div className="actions">
        <button type="reset" className="secondary" onClick={() => setFilled({ subject: false, text: false })}>
          Abbrechen
        </button>
        <button type="submit" disabled={(hydrated && !ready) || sending} aria-describedby={hydrated && !ready ? "mail-send-hint" : undefined}>
          E-Mail senden
        </button>
        <a href={`/freizeit/${eventId}`} className="button secondary">
          Zurück zur Veranstaltung
        </a>
      </div>
      {hydrated && !ready ? (
        <p id="mail-send-hint" className="hint">
          Zum Senden bitte Betreff und Text ausfüllen.
        </p>
      ) : null}
    </Form>
  );
}
