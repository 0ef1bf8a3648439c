// The registration detail's read-only blocks (spec part 2 §2.4): guardian, participant, the
// registration's own answers, payment, and the history of every change.
import type { ReactNode } from "react";
import { formatDate, formatIsoDate, formatTime } from "~/lib/dates";
import { formatAmount } from "~/lib/amount";
import { applicationStatusWord, paymentStatusWord } from "~/lib/registration-status";
import type { RegistrationAction } from "~/lib/enums";
import { PhoneLink } from "./phone-link";
import { Mark, offerText } from "./review-table";

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value === "" || value === null || value === undefined ? "–" : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function yesNo(value: boolean | null) {
  return value === null ? "Keine Angabe" : value ? "Ja" : "Nein";
}

function address(p: { street: string; postalCode: string | null; city: string }) {
  return [p.street, [p.postalCode, p.city].filter(Boolean).join(" ")].filter(Boolean).join(", ");
}

type Guardian = { firstName: string; lastName: string; street: string; postalCode: string; city: string; email: string; mobilePhone: string; phone: string };

export function GuardianBlock({ guardian, account }: { guardian: Guardian | null; account: { firstName: string; lastName: string; email: string } }) {
  return (
    <section aria-labelledby="guardian-title" className="panel">
      <h2 id="guardian-title">Erziehungs&shy;berechtigte*r</h2>
      {guardian ? (
        <Facts
          items={[
            ["Name", `${guardian.firstName} ${guardian.lastName}`],
            ["Adresse", address(guardian)],
            ["E-Mail", guardian.email ? <a href={`mailto:${guardian.email}`}>{guardian.email}</a> : ""],
            ["Mobil", guardian.mobilePhone ? <PhoneLink number={guardian.mobilePhone} /> : ""],
            ["Telefon", guardian.phone ? <PhoneLink number={guardian.phone} /> : ""],
          ]}
        />
      ) : (
        <p>Keine*r angegeben (ab 18 Jahren nicht nötig).</p>
      )}
      <p className="hint">
        Angemeldet von {account.firstName} {account.lastName} (<a href={`mailto:${account.email}`}>{account.email}</a>)
      </p>
    </section>
  );
}

type Participant = { firstName: string; lastName: string; street: string; postalCode: string | null; city: string; birthDate: string; municipality: string; amtsverwaltung: string };

export function ParticipantBlock({ participant }: { participant: Participant }) {
  return (
    <section aria-labelledby="participant-title" className="panel">
      <h2 id="participant-title">Teilnehmer*in</h2>
      <Facts
        items={[
          ["Name", `${participant.firstName} ${participant.lastName}`],
          ["Geburtsdatum", formatIsoDate(participant.birthDate)],
          ["Adresse", address(participant)],
          ["Kreis", participant.municipality],
          ["Amtsverwaltung", participant.amtsverwaltung],
        ]}
      />
    </section>
  );
}

type Answers = {
  tshirtSize: string | null;
  swimBadge: string | null;
  specialNeeds: string;
  nameOfInsured: string;
  birthdateOfInsured: string | null;
  allowedToWander: boolean | null;
  allowedToSwim: boolean | null;
  canSwim: boolean | null;
  allowedToCanoe: boolean | null;
  referral: string;
};

export function AnswersBlock({ answers }: { answers: Answers }) {
  return (
    <section aria-labelledby="answers-title" className="panel">
      <h2 id="answers-title">Angaben zur Anmeldung</h2>
      <Facts
        items={[
          ["Besonderheiten", answers.specialNeeds ? <span className="pre-line">{answers.specialNeeds}</span> : ""],
          ["T-Shirt-Größe", answers.tshirtSize],
          ["Schwimmabzeichen", answers.swimBadge ?? "Keines"],
          ["Name der versicherten Person", answers.nameOfInsured],
          ["Geburtsdatum der versicherten Person", answers.birthdateOfInsured ? formatIsoDate(answers.birthdateOfInsured) : ""],
          ["Darf wandern gehen", yesNo(answers.allowedToWander)],
          ["Darf schwimmen gehen", yesNo(answers.allowedToSwim)],
          ["Kann schwimmen", yesNo(answers.canSwim)],
          ["Darf Kanu fahren", yesNo(answers.allowedToCanoe)],
          ["Wie von uns erfahren", answers.referral],
        ]}
      />
    </section>
  );
}

type Payment = {
  applicationStatus: string;
  paid: boolean;
  waitingListPosition: number | null;
  offerExpiresAt: number | null;
  paymentMethod: "transfer" | "sepa";
  sepaMandateId: number | null;
  amountCents: number | null;
};

export function StatusBlock({ registration, reference, sepaHref, listHref }: { registration: Payment; reference: string | null; sepaHref: string | null; listHref: string }) {
  const payment = paymentStatusWord(registration);
  return (
    <section aria-labelledby="status-title" className="panel">
      <h2 id="status-title">Status und Bezahlung</h2>
      <Facts
        items={[
          ["Anmeldung", <Mark key="a" word={applicationStatusWord(registration, "leaders")} />],
          ...(registration.offerExpiresAt ? ([["Angebot", offerText(registration.offerExpiresAt)]] as [string, ReactNode][]) : []),
          ["Bezahlung", payment ? <Mark key="p" word={payment} /> : "Keine (ohne Platz)"],
          ["Zahlungsart", registration.paymentMethod === "sepa" ? "SEPA-Lastschriftmandat" : "Überweisung"],
          ["Betrag", formatAmount(registration.amountCents)],
          [
            "Verwendungszweck",
            reference ? (
              // The participant list searched by it: the enrolment's children and its payment.
              <span key="v">
                <span className="reference">{reference}</span> (<a href={`${listHref}?suche=${encodeURIComponent(reference)}`}>alle Kinder dieser Anmeldung</a>)
              </span>
            ) : (
              ""
            ),
          ],
          ...(sepaHref ? ([["SEPA-Mandat", <a key="s" href={sepaHref}>SEPA-Detailseite</a>]] as [string, ReactNode][]) : []),
        ]}
      />
    </section>
  );
}

const ACTION_WORDS: Record<RegistrationAction, string> = {
  created: "Angemeldet",
  accepted: "Bestätigt",
  rejected: "Abgelehnt",
  cancelled: "Storniert",
  rejection_revoked: "Ablehnung aufgehoben",
  moved_from_waiting_list: "Von der Warteliste nachgerückt",
  payment_confirmed: "Bezahlung bestätigt",
  payment_revoked: "Bezahlung widerrufen",
  offered: "Platz angeboten",
  offer_accepted: "Angebotenen Platz angenommen",
  offer_declined: "Angebotenen Platz freigegeben",
  offer_expired: "Angebot abgelaufen",
};

type HistoryEntry = { id: number; action: RegistrationAction; reason: string; at: number; actor: string | null };

export function HistoryBlock({ history, createdAt }: { history: HistoryEntry[]; createdAt: number }) {
  // Registrations made before the history was kept have no 'created' entry: the row's own time stands in.
  const entries = history.some((h) => h.action === "created") ? history : [{ id: 0, action: "created" as const, reason: "", at: createdAt, actor: null }, ...history];
  return (
    <section aria-labelledby="history-title" className="panel">
      <h2 id="history-title">Verlauf</h2>
      <ol className="history">
        {entries.map((h) => (
          <li key={h.id}>
            <time dateTime={new Date(h.at).toISOString()}>
              {formatDate(h.at)}, {formatTime(h.at)}
            </time>{" "}
            <strong>{ACTION_WORDS[h.action]}</strong>
            {h.actor ? <> von {h.actor}</> : null}
            {h.reason ? <p className="reason">{h.action === "accepted" ? "Notiz" : "Begründung"}: {h.reason}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
