// The confirmation of one enrolment (issue 9, item 6): each child's status in words, the one
// total and, for a bank transfer, the account, the amount, the reference and a GiroCode.
import type { SerializeFrom } from "@remix-run/node";
import { RegistrationStatus } from "~/components/registration-status";
import { formatDate, formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { formatIban } from "~/lib/iban";
import type { EnrolmentConfirmation } from "~/models/enrollment-confirmation.server";

type Bank = { accountHolder: string; iban: string; bic: string; name: string };
type Props = { enrolment: SerializeFrom<EnrolmentConfirmation>; bank: Bank; qr: { size: number; d: string } | null };

export function Confirmation({ enrolment, bank, qr }: Props) {
  const placed = enrolment.children.filter((c) => c.waitingListPosition === null && c.amountCents !== null);
  const waiting = enrolment.children.filter((c) => c.waitingListPosition !== null && c.applicationStatus === "open" && !c.eventStarted);
  const checking = placed.some((c) => c.applicationStatus === "open");
  // Only what is open is asked for: a child that got its place after another was paid for is not
  // asked for twice (DECISIONS.md, one enrolment, one payment).
  const transfer = enrolment.paymentMethod === "transfer" && enrolment.openCents > 0;
  const partlyPaid = enrolment.paidCents > 0 && enrolment.openCents > 0;
  return (
    <article className="confirmation" aria-labelledby="confirmation-title">
      <h1 id="confirmation-title">Anmeldebestätigung: {enrolment.title}</h1>
      <p>
        Deine Anmeldung vom {formatDate(new Date(enrolment.createdAt))} für „{enrolment.title}“ (ab {formatIsoDate(enrolment.dateFrom)}):
      </p>
      <ul className="enrolled-children">
        {enrolment.children.map((c) => (
          <li key={c.id}>
            <strong>
              {c.firstName} {c.lastName}
            </strong>{" "}
            <RegistrationStatus registration={c} />
            {c.amountCents !== null && c.waitingListPosition === null ? <span className="amount"> {formatEuro(c.amountCents)}</span> : null}
          </li>
        ))}
      </ul>
      {placed.length > 0 ? (
        <p className="total">
          Gesamtbetrag: <strong>{formatEuro(enrolment.totalCents)}</strong>
          {placed.some((c) => (c.amountCents ?? 0) < enrolment.priceCents) && enrolment.siblingDiscountCents > 0
            ? ` (mit Geschwisterrabatt: ${formatEuro(enrolment.siblingDiscountCents)} weniger für jedes weitere Kind)`
            : ""}
        </p>
      ) : null}
      {partlyPaid ? (
        <p>
          Davon bezahlt: {formatEuro(enrolment.paidCents)}. Noch offen: <strong>{formatEuro(enrolment.openCents)}</strong>
        </p>
      ) : null}
      {waiting.length > 0 ? <p>Für Kinder auf der Warteliste zahlst du erst, wenn sie einen Platz bekommen.</p> : null}
      {enrolment.paid ? <p>Die Zahlung ist eingegangen. Vielen Dank!</p> : null}
      {enrolment.paymentMethod === "sepa" && placed.length > 0 && !enrolment.paid ? <p>{partlyPaid ? "Der noch offene Betrag" : "Der Gesamtbetrag"} wird einmal per SEPA-Lastschrift eingezogen.</p> : null}
      {transfer ? (
        <section className="panel transfer" aria-labelledby="transfer-title">
          <h2 id="transfer-title">Überweisung</h2>
          <p>{partlyPaid ? "Bitte überweise den noch offenen Betrag:" : `Bitte überweise den Gesamtbetrag ${placed.length > 1 ? "für alle Kinder " : ""}in einer Überweisung:`}</p>
          <dl className="facts">
            <dt>Kontoinhaber</dt>
            <dd>{bank.accountHolder}</dd>
            <dt>IBAN</dt>
            <dd>{formatIban(bank.iban)}</dd>
            <dt>BIC</dt>
            <dd>{bank.bic}</dd>
            <dt>Bank</dt>
            <dd>{bank.name}</dd>
            <dt>Betrag</dt>
            <dd>{formatEuro(enrolment.openCents)}</dd>
            <dt>Verwendungszweck</dt>
            <dd>{enrolment.reference}</dd>
          </dl>
          {qr ? (
            <figure className="girocode">
              <svg viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-labelledby="girocode-caption" shapeRendering="crispEdges">
                <rect width={qr.size} height={qr.size} fill="#fff" />
                <path d={qr.d} fill="#000" />
              </svg>
              <figcaption id="girocode-caption">GiroCode: Mit deiner Banking-App scannen, dann sind Konto, Betrag und Verwendungszweck schon ausgefüllt.</figcaption>
            </figure>
          ) : null}
          <p>Schon überwiesen? Dann musst du nichts weiter tun. Sobald die Leitung deine Zahlung verbucht hat, steht sie hier als bezahlt, und du bekommst eine E-Mail.</p>
        </section>
      ) : null}
      <p>
        Wir haben dir diese Bestätigung auch per E-Mail geschickt.
        {checking ? " Die Leitung prüft die Anmeldung und bestätigt sie dir." : ""}
        {waiting.length > 0 ? ` Sobald ein Platz frei wird, bekommst du eine E-Mail; dann hast du ${enrolment.offerHours} Stunden Zeit, ihn anzunehmen.` : ""}
      </p>
      <p className="actions">
        <a href={`/freizeit/${enrolment.eventId}`} className="button">
          Zur Veranstaltung
        </a>
        <a href="/" className="button secondary">
          Zur Startseite
        </a>
      </p>
    </article>
  );
}
