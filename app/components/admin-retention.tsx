// 'Datensparsamkeit' on the admin panel: what the next run of the daily job removes, and a
// button to run it now (DECISIONS.md 'Keeping children's data').
import { Form, Link } from "@remix-run/react";
import { ConfirmActions, ConfirmDialog, STEP_ANCHOR, useStepLink } from "~/components/confirm-dialog";
import { formatDate, formatTime } from "~/lib/dates";
import type { RetentionCounts } from "~/models/retention.server";

const PANEL = "/gott?tab=protokoll";

const ROWS: [keyof RetentionCounts, string][] = [
  ["healthData", "Anmeldungen, deren Gesundheits-, Versicherungsangaben, Erlaubnisse und Begründungen gelöscht werden"],
  ["comments", "Kommentare"],
  ["sepaMandates", "SEPA-Lastschriftmandate"],
  ["registrations", "Anmeldungen, die ganz gelöscht werden"],
  ["helperChecks", "Mitarbeiter*innen, deren Nachweise (Führungszeugnis, Juleica) gelöscht werden"],
  ["mails", "Versandte und nicht zustellbare E-Mails (außer „E-Mail an alle“)"],
];

type Props = {
  preview: RetentionCounts;
  settings: { healthDays: number; years: number; sepaMonths: number };
  /** The daily job's last run (ISO time), null before the first. */
  lastRun: { at: string; failed: boolean } | null;
  asked: boolean;
  submissionKey: string;
};

function lastRunText(lastRun: Props["lastRun"]) {
  if (!lastRun) return "Noch nicht gelaufen.";
  const when = `${formatDate(new Date(lastRun.at))}, ${formatTime(new Date(lastRun.at))}`;
  // Said in words, not by colour: a failed run deleted nothing.
  return lastRun.failed ? `Der letzte Lauf (${when}) ist fehlgeschlagen und hat nichts gelöscht; der nächste versucht es erneut. Näheres steht im Log des Servers.` : `Zuletzt gelaufen: ${when}.`;
}

export function AdminRetention({ preview, settings, lastRun, asked, submissionKey }: Props) {
  const nothing = ROWS.every(([key]) => preview[key] === 0);
  const step = useStepLink(`${PANEL}&frage=datensparsamkeit#${STEP_ANCHOR}`);
  return (
    <section aria-labelledby="retention-title" className="admin-retention">
      <h2 id="retention-title">Datensparsamkeit</h2>
      <p>
        Einmal am Tag (und bei jedem Start der App) werden Gesundheitsangaben, Versicherungsdaten, Erlaubnisse, Kommentare und die Begründungen von Entscheidungen {settings.healthDays} Tage nach dem Ende
        einer Veranstaltung gelöscht, versandte E-Mails {settings.healthDays} Tage nach dem Versand, SEPA-Mandate nach {settings.sepaMonths} Monaten, die Anmeldungen nach {settings.years} Jahren und die Nachweise von Mitarbeiter*innen drei
        Monate nach ihrem letzten Einsatz.
        Das Protokoll nennt nur die Anzahl.
      </p>
      <p>{lastRunText(lastRun)}</p>
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
      {nothing ? (
        <button type="button" className="secondary" disabled>
          Jetzt ausführen
        </button>
      ) : (
        // Deleting cannot be undone: asked first, as the other irreversible steps.
        <Link {...step} preventScrollReset className="button secondary">
          Jetzt ausführen
        </Link>
      )}
      {asked && !nothing ? (
        <ConfirmDialog title="Datensparsamkeit jetzt ausführen" cancelUrl={PANEL} stepKey="datensparsamkeit">
          <p>Die oben gezählten Daten werden jetzt gelöscht, nicht erst in der Nacht. Das lässt sich nicht rückgängig machen.</p>
          <Form method="post" action={PANEL}>
            <input type="hidden" name="intent" value="run-retention" />
            <input type="hidden" name="submissionKey" value={submissionKey} />
            <ConfirmActions label="Jetzt löschen" cancelUrl={PANEL} />
          </Form>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
