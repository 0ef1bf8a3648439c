// The payment of one enrolment on the participant list, shown when the search holds its transfer
// reference (a line of the bank statement): who enrolled, each child with its amount and state,
// what is still open, and one button that confirms the whole transfer (DECISIONS.md, one
// enrolment, one payment). A plain form; the server decides what it confirms.
import { Form } from "@remix-run/react";
import { formatAmount } from "~/lib/amount";
import { joinNames } from "~/lib/names";
import { paysNow } from "~/lib/registration-machine";
import { applicationStatusWord, paymentStatusWord } from "~/lib/registration-status";
import type { EnrolmentPayment } from "~/models/enrolment-payment.server";
import { Mark } from "./review-table";
import { WithReferences } from "./review-summary";

/** A child as the pages have it (an offer's end as the loader's JSON gives it). */
type Child = Omit<EnrolmentPayment["children"][number], "offerExpiresAt"> & { offerExpiresAt: number | string | null };

/**
 * Children of one payment (an enrolment's transfer, a SEPA mandate's debit): each with its detail
 * page, what its place costs, and its state and payment in words.
 */
export function PaymentChildren({ rows }: { rows: Child[] }) {
  return (
    <ul className="payment-children">
      {rows.map((c) => {
        const paymentWord = paymentStatusWord(c);
        return (
          <li key={c.id}>
            <a href={`/freizeit/participants/participant-details/${c.id}`}>
              {c.firstName} {c.lastName}
            </a>
            {paysNow(c) ? `: ${c.amountCents === null ? "Betrag unbekannt" : formatAmount(c.amountCents)}` : null}
            <span className="states">
              <Mark word={applicationStatusWord(c, "leaders")} />
              {paymentWord ? (
                <>
                  {", "}
                  <Mark word={paymentWord} />
                </>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The enrolments a statement's line names, shown to whoever confirms payments (the loader reads
 * them for no one else). One transfer may pay two enrolments: then their sum comes first, to
 * compare with the bank's amount, and each enrolment is confirmed with its own button. A
 * reference of this event that names no enrolment (mistyped) is said, as the sum lacks it.
 */
export function EnrolmentPayments({ payments, unknown, actionUrl }: { payments: EnrolmentPayment[]; unknown: string[]; actionUrl: string }) {
  const total = payments.reduce((sum, p) => sum + p.totalCents, 0);
  const open = payments.reduce((sum, p) => sum + p.openCents, 0);
  return (
    <>
      {unknown.length ? (
        <p className="payments-note">
          <WithReferences
            text={
              unknown.length === 1
                ? `Zum Verwendungszweck ${unknown[0]} gibt es bei dieser Veranstaltung keine Anmeldung.`
                : `Zu den Verwendungszwecken ${joinNames(unknown)} gibt es bei dieser Veranstaltung keine Anmeldungen.`
            }
          />
        </p>
      ) : null}
      {payments.length > 1 ? (
        <p className="payments-note">
          Zusammen für diese {payments.length} Anmeldungen: <strong>{formatAmount(total)}</strong>
          {open !== total && open > 0 ? ` (davon offen: ${formatAmount(open)})` : null}.
          {payments.some((p) => p.amountUnknown) ? " Unbekannte Beträge sind darin nicht enthalten." : null}
        </p>
      ) : null}
      {payments.map((payment) => (
        <EnrolmentPaymentPanel key={payment.id} payment={payment} actionUrl={actionUrl} />
      ))}
    </>
  );
}

function EnrolmentPaymentPanel({ payment, actionUrl }: { payment: EnrolmentPayment; actionUrl: string }) {
  const { reference, children, totalCents, openCents, owingIds } = payment;
  const titleId = `zahlung-titel-${payment.id}`;
  return (
    <section aria-labelledby={titleId} className="panel enrolment-payment">
      <h2 id={titleId}>
        Zahlung zur Anmeldung <span className="reference">{reference}</span>
      </h2>
      <p>
        Angemeldet von {payment.payer}, {payment.paymentMethod === "sepa" ? "per SEPA-Lastschriftmandat" : "per Überweisung"}.
      </p>
      <PaymentChildren rows={children} />
      <p className="total">
        Betrag der Kinder mit Platz: <strong>{formatAmount(totalCents)}</strong>
        {openCents !== totalCents && openCents > 0 ? <span> (davon offen: {formatAmount(openCents)})</span> : null}
      </p>
      {owingIds.length === 0 ? (
        <p>{totalCents > 0 ? "Die Zahlung ist vollständig bestätigt." : "Für diese Anmeldung ist nichts zu zahlen."}</p>
      ) : (
        <Form method="post" action={actionUrl}>
          <input type="hidden" name="intent" value="confirm-enrolment" />
          <input type="hidden" name="enrolmentId" value={payment.id} />
          {owingIds.map((id) => (
            <input key={id} type="hidden" name="registrationIds" value={id} />
          ))}
          <button type="submit" aria-describedby={titleId}>
            {payment.amountUnknown ? "Zahlung bestätigen" : `Zahlung über ${formatAmount(openCents)} bestätigen`}
          </button>
        </Form>
      )}
    </section>
  );
}
