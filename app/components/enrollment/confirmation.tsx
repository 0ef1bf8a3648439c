// The confirmation of one enrolment (issue 9, item 6): each child's status in words, the one
// total and, for a bank transfer, the account, the amount, the reference and a GiroCode.
import type { SerializeFrom } from "@remix-run/node";
import { RegistrationStatus } from "~/components/registration-status";
import { formatDate, formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { formatIban } from "~/lib/iban";
import { isFree } from "~/lib/money";
import { joinNames } from "~/lib/names";
import { paysNow } from "~/lib/registration-machine";
import type { EnrolmentConfirmation } from "~/models/enrollment-confirmation.server";

type Bank = { accountHolder: string; iban: string; bic: string; name: string; creditorId: string };
type Code = { size: number; d: string };
type Props = { enrolment: SerializeFrom<EnrolmentConfirmation>; bank: Bank; codes: Code[] };

export function Confirmation({ enrolment, bank, codes }: Props) {
  // The children a payment is for: with a place (open or accepted), not rejected or cancelled.
  const placed = enrolment.children.filter((c) => paysNow(c) && c.amountCents !== null);
  const forWhom = placed.length < 2 ? "" : placed.length === enrolment.children.length ? "für alle Kinder " : "für die Kinder mit Platz ";
  const inLine = enrolment.children.filter((c) => c.waitingListPosition !== null && c.applicationStatus === "open" && !c.eventStarted);
  // A child with an open offer waits for no place: it has one to take (its status links to it).
  const waiting = inLine.filter((c) => !c.offerExpiresAt);
  const free = isFree(enrolment.priceCents, enrolment.totalCents);
  const checking = placed.some((c) => c.applicationStatus === "open");
  // Only what is open is asked for: a child that got its place after another was paid for is not
  // asked for twice (DECISIONS.md, one enrolment, one payment).
  const transfer = enrolment.paymentMethod === "transfer" && enrolment.openCents > 0;
  const partlyPaid = enrolment.paidCents > 0 && enrolment.openCents > 0;
  // Children once asked for (with the enrolment or in their own mail) and turned down or
  // cancelled since, unpaid: the total is smaller than a mail said (their own mail said so; a paid
  // one's mail speaks of the refund). Unlike owes(), a child without an amount was never asked
  // for: it waited for a place.
  const dropped = enrolment.children.filter((c) => (c.applicationStatus === "rejected" || c.applicationStatus === "cancelled") && (c.amountCents ?? 0) > 0 && !c.paid);
  // What is open, in the payments the mails asked for: usually one.
  const parts = enrolment.openParts;
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
            {c.amountCents !== null && paysNow(c) && !free ? <span className="amount"> {formatEuro(c.amountCents)}</span> : null}
          </li>
        ))}
      </ul>
      {placed.length > 0 && !free ? (
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
      {placed.length > 0 && !free && dropped.length > 0 ? (
        <p>
          Ohne {joinNames(dropped.map((c) => `${c.firstName} ${c.lastName}`))}: Für abgelehnte und stornierte Anmeldungen{" "}
          {enrolment.paymentMethod === "sepa" ? "wird nichts eingezogen." : "ist nichts zu zahlen."}
        </p>
      ) : null}
      {inLine.length > 0 && !free ? <p>Für Kinder auf der Warteliste zahlst du erst, wenn sie einen Platz bekommen.</p> : null}

      {enrolment.paid ? <p>Die Zahlung ist eingegangen. Vielen Dank!</p> : null}
      {enrolment.paymentMethod === "sepa" && placed.length > 0 && !enrolment.paid && !free ? (
        <>
          {parts.length > 1 ? (
            <>
              <p>Der noch offene Betrag wird per SEPA-Lastschrift eingezogen, in den Beträgen, die wir dir per E-Mail angekündigt haben:</p>
              <ul className="debit-parts">
                {parts.map((part) => (
                  <li key={part.names.join()}>
                    {formatEuro(part.cents)} für {joinNames(part.names)} ({part.alone ? "einzeln per E-Mail angekündigt" : "mit der Anmeldung angekündigt"})
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>{partlyPaid ? "Der noch offene Betrag" : "Der Gesamtbetrag"} wird einmal per SEPA-Lastschrift eingezogen.</p>
          )}
          <dl className="facts">
            {enrolment.debitAccount ? (
              <>
                <dt>Von deinem Konto</dt>
                <dd>{enrolment.debitAccount}</dd>
              </>
            ) : null}
            <dt>Zahlungsempfänger</dt>
            <dd>{bank.accountHolder}</dd>
            <dt>Gläubiger-Identifikationsnummer</dt>
            <dd>{bank.creditorId}</dd>
            {enrolment.mandateReference ? (
              <>
                <dt>Mandatsreferenz</dt>
                <dd>{enrolment.mandateReference}</dd>
              </>
            ) : null}
          </dl>
        </>
      ) : null}
      {transfer ? (
        <section className="panel transfer" aria-labelledby="transfer-title">
          <h2 id="transfer-title">Überweisung</h2>
          {parts.length > 1 ? (
            <p>
              Bitte überweise den noch offenen Betrag in {parts.length} Überweisungen, wie wir sie dir per E-Mail genannt haben, jede mit diesem Konto und
              Verwendungszweck:
            </p>
          ) : (
            <p>{partlyPaid ? "Bitte überweise den noch offenen Betrag:" : `Bitte überweise den Gesamtbetrag ${forWhom}in einer Überweisung:`}</p>
          )}
          <dl className="facts">
            <dt>Kontoinhaber</dt>
            <dd>{bank.accountHolder}</dd>
            <dt>IBAN</dt>
            <dd>{formatIban(bank.iban)}</dd>
            <dt>BIC</dt>
            <dd>{bank.bic}</dd>
            <dt>Bank</dt>
            <dd>{bank.name}</dd>
            {parts.length > 1 ? null : (
              <>
                <dt>Betrag</dt>
                <dd>{formatEuro(enrolment.openCents)}</dd>
              </>
            )}
            <dt>Verwendungszweck</dt>
            <dd className="reference">{enrolment.reference}</dd>
          </dl>
          {parts.length > 1 ? (
            parts.map((part, i) => (
              <section key={part.names.join()} className="transfer-part" aria-labelledby={`transfer-part-${i}`}>
                <h3 id={`transfer-part-${i}`}>
                  {i + 1}. Überweisung: {formatEuro(part.cents)}
                </h3>
                <p>
                  Für {joinNames(part.names)} ({part.alone ? "einzeln per E-Mail angefragt" : "mit der Anmeldung angefragt"})
                </p>
                {codes[i] ? <GiroCode code={codes[i]} id={`girocode-caption-${i}`} caption={`GiroCode der ${i + 1}. Überweisung: Mit deiner Banking-App scannen, dann sind Konto, Betrag und Verwendungszweck schon ausgefüllt.`} /> : null}
              </section>
            ))
          ) : codes[0] ? (
            <GiroCode code={codes[0]} id="girocode-caption" caption="GiroCode: Mit deiner Banking-App scannen, dann sind Konto, Betrag und Verwendungszweck schon ausgefüllt." />
          ) : null}
          <p>
            {parts.length > 1
              ? "Eine davon schon überwiesen? Dann musst du dafür nichts weiter tun. Sobald die Leitung eine Zahlung verbucht hat, steht sie hier als bezahlt, und du bekommst eine E-Mail."
              : "Schon überwiesen? Dann musst du nichts weiter tun. Sobald die Leitung deine Zahlung verbucht hat, steht sie hier als bezahlt, und du bekommst eine E-Mail."}
          </p>
        </section>
      ) : null}
      <p>
        Wir haben dir diese Bestätigung auch per E-Mail geschickt.
        {checking ? " Die Leitung prüft die Anmeldung; ihre Entscheidung bekommst du per E-Mail." : ""}
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

function GiroCode({ code, id, caption }: { code: Code; id: string; caption: string }) {
  return (
    <figure className="girocode">
      <svg viewBox={`0 0 ${code.size} ${code.size}`} role="img" aria-labelledby={id} shapeRendering="crispEdges">
        <rect width={code.size} height={code.size} fill="#fff" />
        <path d={code.d} fill="#000" />
      </svg>
      <figcaption id={id}>{caption}</figcaption>
    </figure>
  );
}
