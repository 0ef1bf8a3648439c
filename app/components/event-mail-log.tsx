// The log of an event's mails (DECISIONS.md, 'Event e-mail log'): subject, sender, time,
// attachments, and per address queued / sent / failed (with the error); 'Erneut senden' queues
// the failed ones of a mail again.
import { Form } from "@remix-run/react";
import { formatDate, formatTime } from "~/lib/dates";
import type { MailLogEntry, RecipientState } from "~/models/event-mail.server";

const STATE_WORDS: Record<RecipientState, string> = { queued: "in der Warteschlange", sent: "gesendet", failed: "fehlgeschlagen" };

function count(entry: MailLogEntry, state: RecipientState) {
  return entry.recipients.filter((r) => r.state === state).length;
}

export function EventMailLog({ mails }: { mails: MailLogEntry[] }) {
  return (
    <section aria-labelledby="mail-log-title" className="panel mail-log">
      <h2 id="mail-log-title">Gesendete E-Mails</h2>
      {mails.length === 0 ? (
        <p>Zu dieser Veranstaltung wurden noch keine E-Mails gesendet.</p>
      ) : (
        <ul className="mail-log-list">
          {mails.map((mail) => {
            const failed = count(mail, "failed");
            return (
              <li key={mail.id} className="mail-log-entry">
                <h3>{mail.subject}</h3>
                <p className="mail-log-from">
                  Von {mail.senderName} am {formatDate(new Date(mail.createdAt))} um {formatTime(new Date(mail.createdAt))}
                  {mail.attachments.length ? ` · Anhänge: ${mail.attachments.join(", ")}` : ""}
                </p>
                <p className="mail-log-summary">
                  {mail.recipients.length === 1 ? "1 Empfänger*in" : `${mail.recipients.length} Empfänger*innen`}: {count(mail, "sent")} gesendet, {count(mail, "queued")} in der Warteschlange, {failed}{" "}
                  fehlgeschlagen
                </p>
                <details>
                  <summary>Empfänger*innen anzeigen</summary>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Adresse</th>
                        <th scope="col">Stand</th>
                        <th scope="col">Fehler</th>
                      </tr>
                    </thead>
                    <tbody>
                      {mail.recipients.map((r) => (
                        <tr key={r.email} className={`mail-state-${r.state}`}>
                          <td>{r.email}</td>
                          <td>{STATE_WORDS[r.state]}</td>
                          <td>{r.error ?? ""}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </details>
                {failed > 0 ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="resend" />
                    <input type="hidden" name="mailId" value={mail.id} />
                    <button type="submit" className="secondary">
                      Erneut senden
                    </button>
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
