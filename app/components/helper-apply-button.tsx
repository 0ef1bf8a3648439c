// The helper application on the event page (spec part 1 §4): the button, or the state it led to,
// and the refusal of a post the page would not offer (an event begun, a decision made).
import { Form } from "@remix-run/react";

type HelperFacts = { myHelperStatus: "pending" | "accepted" | "declined" | null; past: boolean; mayApplyAsHelper: boolean };

/** The button or the state, with the refusal of the last post. */
export function HelperButton({ event, refused }: { event: HelperFacts; refused?: string }) {
  return (
    <>
      <HelperState event={event} />
      {refused ? (
        <p role="alert" className="field-errors">
          {refused}
        </p>
      ) : null}
    </>
  );
}

function HelperState({ event }: { event: HelperFacts }) {
  switch (event.myHelperStatus) {
    case "pending":
      return (
        <>
          <button type="button" disabled>
            Bereits beworben
          </button>
          <p className="hint">Anmeldung durch einen Admin ausstehend</p>
        </>
      );
    case "declined":
      return (
        <button type="button" disabled>
          Kein*e Helfer*in
        </button>
      );
    case "accepted":
      return (
        <button type="button" disabled>
          Sie sind Helfer*in
        </button>
      );
    default:
      return event.past || !event.mayApplyAsHelper ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value="apply-helper" />
          <button type="submit" className="secondary">
            Als Helfer*in bewerben
          </button>
        </Form>
      );
  }
}
