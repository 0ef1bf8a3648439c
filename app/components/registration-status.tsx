// A registration's state: the spec's check or cross (a neutral ○ while still open), the words, and a
// colour that only adds.
import { applicationStatusWord, isOffered, paymentStatusWord, statusMark, type StatusWord } from "~/lib/registration-status";

function Word({ word }: { word: StatusWord }) {
  return (
    <span className={`status status-${word.tone}`}>
      <span aria-hidden="true">{statusMark(word)}</span> {word.text}
    </span>
  );
}

type Shown = {
  id?: number;
  applicationStatus: string;
  paid: boolean;
  waitingListPosition: number | null;
  offerExpiresAt?: Date | string | number | null;
  eventStarted?: boolean;
  amountCents?: number | null;
};

export function RegistrationStatus({ registration }: { registration: Shown }) {
  const payment = paymentStatusWord(registration);
  return (
    <span className="statuses">
      <Word word={applicationStatusWord(registration)} />
      {payment ? (
        <>
          {" "}
          <Word word={payment} />
        </>
      ) : null}
      {registration.id && isOffered(registration) ? (
        <span className="offer-links">
          {" "}
          <a className="button" href={`/platzangebot/${registration.id}/annehmen`}>
            Platz annehmen
          </a>{" "}
          <a className="button secondary" href={`/platzangebot/${registration.id}/freigeben`}>
            Platz freigeben
          </a>
        </span>
      ) : null}
    </span>
  );
}
