// Proof of consent on a registration's detail: which versions of the participation terms and the
// privacy policy the parent accepted with the enrolment, and when (DECISIONS.md).
import { formatDate, formatTime } from "~/lib/dates";

export type ConsentView = { consentedAt: string | Date | null; documents: { label: string; version: number; url: string }[] };

export function ConsentBlock({ consent }: { consent: ConsentView | null }) {
  const at = consent?.consentedAt ? new Date(consent.consentedAt) : null;
  return (
    <section aria-labelledby="consent-title" className="panel">
      <h2 id="consent-title">Einwilligung</h2>
      {!consent || !at ? (
        <p>Für diese Anmeldung ist keine Einwilligung gespeichert (angemeldet, bevor Dokumente erfasst wurden).</p>
      ) : consent.documents.length === 0 ? (
        <p>
          Angemeldet am {formatDate(at)}, {formatTime(at)}. Zu diesem Zeitpunkt waren keine Teilnahmebedingungen und keine Datenschutzerklärung hochgeladen.
        </p>
      ) : (
        <>
          <p>
            Akzeptiert am {formatDate(at)}, {formatTime(at)}:
          </p>
          <ul>
            {consent.documents.map((document) => (
              <li key={document.url}>
                <a href={document.url} target="_blank" rel="noopener noreferrer">
                  {document.label} (Version {document.version})
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
