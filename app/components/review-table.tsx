// The participant list's tables (spec part 2 §2.5): open and accepted registrations, the waiting
// list, the rejected and cancelled ones, and the open SEPA direct debits. Every row says its
// state in words; the spec's row colours only add to that.
import { formatDate, formatTime } from "~/lib/dates";
import { formatAmount } from "~/lib/amount";
import { applicationStatusWord, paymentStatusWord, statusMark, type StatusWord } from "~/lib/registration-status";
import { GroupRowsForm, GroupSelect, type GroupOption } from "./group-select";
import { detailAddress } from "~/lib/review-filter";
import { rowAnchor } from "~/lib/row-anchors";
import { DecisionButtons, type DecisionRights } from "./review-decisions";
import { BULK_FORM_ID, PICKED } from "./bulk-accept";

export type Row = {
  id: number;
  firstName: string;
  lastName: string;
  applicationStatus: "open" | "accepted" | "rejected" | "cancelled";
  paid: boolean;
  waitingListPosition: number | null;
  offerExpiresAt: number | null;
  paymentMethod: "transfer" | "sepa";
  /** What its place costs (0: free, nothing to pay); null off a place. */
  amountCents: number | null;
  groupId: number | null;
  groupName: string | null;
};

type Shared = {
  may: DecisionRights;
  actionUrl: string;
  pageSearch: string;
  /** The refusal of the last POST, by registration. */
  errorFor: (registrationId: number) => string | null;
};

export function Mark({ word }: { word: StatusWord }) {
  return (
    <span className={`status status-${word.tone}`}>
      <span aria-hidden="true">{statusMark(word)}</span> {word.text}
    </span>
  );
}

/** The child's detail page, carrying the list's filter, search and page for its 'Zurück'. */
function NameLink({ row, pageSearch }: { row: Row; pageSearch: string }) {
  return (
    <a href={detailAddress(row.id, pageSearch)}>
      {row.lastName}, {row.firstName}
    </a>
  );
}

/** Spec: green when payment and application are both confirmed, yellow when one is, red when neither. */
export function rowColour(row: Pick<Row, "applicationStatus" | "paid" | "amountCents">) {
  // A free place has nothing to pay: it counts as paid.
  const done = Number(row.applicationStatus === "accepted") + Number(row.paid || row.amountCents === 0);
  return done === 2 ? "row-green" : done === 1 ? "row-yellow" : "row-red";
}

export function offerText(expiresAt: number) {
  return `Platz angeboten bis ${formatDate(expiresAt)}, ${formatTime(expiresAt)}`;
}

type GroupRights = { groups: GroupOption[]; assignGroups: boolean };

/**
 * Below 600 px the stylesheet shows each row as a card (issue 10/11 review at 360 px): the same
 * table markup, each cell labelled by its data-label, so nothing changes for screen readers.
 */
export function RegistrationTable({ rows, bulk, groups, assignGroups, ...shared }: Shared & GroupRights & { rows: Row[]; bulk: boolean }) {
  const acts = shared.may.decideRegistrations || shared.may.confirmPayments;
  return (
    <>
      {assignGroups ? <GroupRowsForm action={shared.actionUrl} /> : null}
      <div className="table-scroll">
        <table className="review-table card-table">
          <caption className="visually-hidden">Offene und bestätigte Anmeldungen</caption>
          <thead>
            <tr>
              {bulk ? (
                <th scope="col">
                  <span className="visually-hidden">Auswahl</span>
                </th>
              ) : null}
              <th scope="col">Name</th>
              <th scope="col">Gruppe</th>
              <th scope="col">Bezahlung</th>
              <th scope="col">Anmeldung</th>
              {/* The camp team decides nothing: no column that stays empty for it. */}
              {acts ? <th scope="col">Aktionen</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const payment = paymentStatusWord(row);
              const name = `${row.firstName} ${row.lastName}`;
              return (
                <tr key={row.id} id={rowAnchor(row.id)} className={rowColour(row)} data-registration={row.id}>
                  {bulk ? (
                    <td className="pick-cell">
                      {row.applicationStatus === "open" ? (
                        <label className="pick">
                          <input type="checkbox" name={PICKED} value={row.id} form={BULK_FORM_ID} aria-label={`${name} auswählen`} />
                          <span className="pick-text" aria-hidden="true">
                            Auswählen
                          </span>
                        </label>
                      ) : null}
                    </td>
                  ) : null}
                  <th scope="row">
                    <NameLink row={row} pageSearch={shared.pageSearch} />
                  </th>
                  <td data-label="Gruppe">
                    {assignGroups ? (
                      <GroupSelect action={shared.actionUrl} groups={groups} groupId={row.groupId} target={{ registrationId: row.id }} name={name} />
                    ) : (
                      (row.groupName ?? <span className="muted">Keine Gruppe</span>)
                    )}
                  </td>
                  <td data-label="Bezahlung">
                    {payment ? <Mark word={payment} /> : null}
                    {/* The amount, to compare with a bank statement's line that names no reference. */}
                    {payment && row.amountCents ? <span> {formatAmount(row.amountCents)}</span> : null}
                    {row.paymentMethod === "sepa" ? <span className="muted"> (SEPA)</span> : null}
                  </td>
                  <td data-label="Anmeldung">
                    <Mark word={applicationStatusWord(row, "leaders")} />
                  </td>
                  {acts ? (
                    <td data-label="Aktionen" className="actions-cell">
                      <DecisionButtons registration={row} error={shared.errorFor(row.id)} {...shared} />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function WaitingList({ rows, ...shared }: Shared & { rows: Row[] }) {
  return (
    <section aria-labelledby="warteliste-titel" className="review-section">
      <h2 id="warteliste-titel">Warteliste</h2>
      <ol className="waiting-list">
        {rows.map((row) => (
          <li key={row.id} id={rowAnchor(row.id)} className={row.offerExpiresAt ? "offered" : undefined}>
            {/* The position once, first; the section's heading already says 'Warteliste'. An offered
                place is no longer in line: its offer says what it is. */}
            {row.offerExpiresAt ? null : <span className="position">Platz {row.waitingListPosition}</span>} <NameLink row={row} pageSearch={shared.pageSearch} />{" "}
            {row.offerExpiresAt ? <span className="status status-pending">{offerText(row.offerExpiresAt)}</span> : null}
            <DecisionButtons registration={row} error={shared.errorFor(row.id)} {...shared} />
          </li>
        ))}
      </ol>
    </section>
  );
}

export function RejectedList({ rows, ...shared }: Shared & { rows: Row[] }) {
  return (
    <section aria-labelledby="abgelehnt-titel" className="review-section">
      <h2 id="abgelehnt-titel">Abgelehnte Teilnehmer*innen</h2>
      <ul className="rejected-list">
        {rows.map((row) => (
          <li key={row.id} id={rowAnchor(row.id)} className="row-grey">
            <NameLink row={row} pageSearch={shared.pageSearch} /> <Mark word={applicationStatusWord(row, "leaders")} />{" "}
            <span className="muted">{row.groupName ?? "Keine Gruppe"}</span>
            <DecisionButtons registration={row} error={shared.errorFor(row.id)} {...shared} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export type SepaRow = { id: number; firstName: string; lastName: string; children: number; amountCents: number };

export function OpenSepaList({ eventId, mandates }: { eventId: number; mandates: SepaRow[] }) {
  return (
    <section aria-labelledby="sepa-titel" className="review-section">
      <h2 id="sepa-titel">Offene SEPA-Lastschriften</h2>
      <ul className="sepa-list">
        {mandates.map((m) => (
          <li key={m.id} className="row-orange">
            <a href={`/freizeit/${eventId}/sepa/${m.id}`}>
              {m.firstName} {m.lastName}
            </a>{" "}
            <span>
              {m.children === 1 ? "1 Teilnehmer*in" : `${m.children} Teilnehmer*innen`}, offen: {formatAmount(m.amountCents || null)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
