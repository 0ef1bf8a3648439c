// 'Datensparsamkeit' on the admin panel: what the next run of the daily job removes, and a
// button to run it now (DECISIONS.md 'Keeping children's data').
import { Form } from "@remix-run/react";
import type { RetentionCounts } from "~/models/retention.server";

const ROWS: [keyof RetentionCounts, string][] = [
  ["healthData", "Anmeldungen, deren Gesundheits-, Versicherungsangaben und Erlaubnisse gelöscht werden"],
  ["comments", "Kommentare"],
  ["sepaMandates", "SEPA-Lastschriftmandate"],
  ["registrations", "Anmeldungen, die ganz gelöscht werden"],
];

export function AdminRetention({ preview, settings }: { preview: RetentionCounts; settings: { healthDays: number; years: number; sepaMonths: number } }) {
  const nothing = ROWS.every(([key]) => preview[key] === 0);
  return (
    <section aria-labelledby="retention-title" className="admin-retention">
      <h2 id="retention-title">Datensparsamkeit</h2>
      <p>
        Jede Nacht werden Gesundheitsangaben, Versicherungsdaten, Erlaubnisse und Kommentare {settings.healthDays} Tage nach dem Ende
        einer Veranstaltung gelöscht, SEPA-Mandate nach {settings.sepaMonths} Monaten und die Anmeldungen nach {settings.years} Jahren.
        Das Protokoll nennt nur die Anzahl.
      </p>
      <h3>Der nächste Lauf entfernt</h3>
      <table>
        <tbody>
          {ROWS.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td>{preview[key]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Form method="post">
        <input type="hidden" name="intent" value="run-retention" />
        <button type="submit" className="secondary" disabled={nothing}>
          Jetzt ausführen
        </button>
      </Form>
    </section>
  );
}
