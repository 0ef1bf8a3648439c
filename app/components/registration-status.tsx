// A registration's state: the spec's check or cross, the words, and a colour that only adds.
import { applicationStatusWord, paymentStatusWord, type StatusWord } from "~/lib/registration-status";

function Word({ word }: { word: StatusWord }) {
  return (
    <span className={`status status-${word.tone}`}>
      <span aria-hidden="true">{word.done ? "✓" : "✗"}</span> {word.text}
    </span>
  );
}

export function RegistrationStatus({ registration }: { registration: { applicationStatus: string; paid: boolean; waitingListPosition: number | null } }) {
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
    </span>
  );
}
