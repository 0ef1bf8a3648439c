// 'Dokumente': the three legal PDFs. One form: a file per row ('Datei Hochladen', the chosen
// name or 'Dateiname'), 'Speichern' and 'Zurücksetzen'. With JavaScript the choice takes only PDF
// files (others are silently ignored, as the spec says); the server checks the content anyway.
import { Form, useNavigation } from "@remix-run/react";
import { useState, type ChangeEvent } from "react";
import { formatDate } from "~/lib/dates";
import { useHydrated } from "./forms";

export type LegalRow = {
  field: string;
  label: string;
  url: string;
  current: { version: number; fileName: string; uploadedAt: string } | null;
};

export type LegalFailure = { title: string; messages: Record<string, string> };

function isPdf(file: File) {
  return file.type === "application/pdf" || /\.pdf$/i.test(file.name);
}

function LegalFileRow({ row, error, hydrated, chosen, onChosen }: { row: LegalRow; error?: string; hydrated: boolean; chosen: string; onChosen: (name: string) => void }) {
  const inputId = `legal-${row.field}`;
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (file && !isPdf(file)) {
      event.currentTarget.value = "";
      return onChosen("");
    }
    onChosen(file?.name ?? "");
  };
  return (
    <li className="admin-legal-row">
      <div className="admin-legal-what">
        <strong>{row.label}</strong>
        {row.current ? (
          <span className="hint">
            Aktuell: <a href={row.url}>Version {row.current.version}</a> vom {formatDate(new Date(row.current.uploadedAt))} ({row.current.fileName})
          </span>
        ) : (
          <span className="hint">Noch nicht hochgeladen</span>
        )}
      </div>
      <div className="admin-legal-choose">
        <label htmlFor={inputId} className={hydrated ? "button secondary" : undefined}>
          Datei Hochladen<span className="visually-hidden">: {row.label}</span>
        </label>
        <input
          id={inputId}
          type="file"
          name={row.field}
          accept="application/pdf,.pdf"
          className={hydrated ? "visually-hidden" : undefined}
          onChange={onChange}
          aria-describedby={error ? `${inputId}-error` : undefined}
        />
        {hydrated ? <span className={chosen ? "admin-legal-name" : "admin-legal-name placeholder"}>{chosen || "Dateiname"}</span> : null}
      </div>
      {error ? (
        <p id={`${inputId}-error`} className="field-errors">
          {error}
        </p>
      ) : null}
    </li>
  );
}

type LegalProps = { rows: LegalRow[]; failure: LegalFailure | null; action: string; submissionKey: string };

export function AdminLegal({ rows, failure, action, submissionKey }: LegalProps) {
  // A saved version makes a new form: the chosen names and files are gone, as after a reload.
  const versions = rows.map((r) => r.current?.version ?? 0).join("-");
  const hydrated = useHydrated(); // here, so that a new form does not start as if without JavaScript
  return (
    <section aria-labelledby="admin-legal" className="panel admin-legal">
      <h2 id="admin-legal">Dokumente</h2>
      <LegalForm key={versions} rows={rows} failure={failure} action={action} hydrated={hydrated} submissionKey={submissionKey} />
    </section>
  );
}

function LegalForm({ rows, failure, action, hydrated, submissionKey }: LegalProps & { hydrated: boolean }) {
  const navigation = useNavigation();
  const [chosen, setChosen] = useState<Record<string, string>>({});
  return (
    <Form method="post" action={action} encType="multipart/form-data" onReset={() => setChosen({})}>
      {failure ? (
        <div role="alert" className="flash flash-danger form-alert">
          <strong>{failure.title}</strong>
          {failure.messages[""] ? <p>{failure.messages[""]}</p> : null}
        </div>
      ) : null}
      <input type="hidden" name="intent" value="legal" />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      <ul className="admin-legal-rows">
        {rows.map((row) => (
          <LegalFileRow
            key={row.field}
            row={row}
            error={failure?.messages[row.field]}
            hydrated={hydrated}
            chosen={chosen[row.field] ?? ""}
            onChosen={(name) => setChosen((c) => ({ ...c, [row.field]: name }))}
          />
        ))}
      </ul>
      <div className="actions">
        <button type="submit" disabled={navigation.state === "submitting"}>
          Speichern
        </button>
        <button type="reset" className="secondary">
          Zurücksetzen
        </button>
      </div>
    </Form>
  );
}
