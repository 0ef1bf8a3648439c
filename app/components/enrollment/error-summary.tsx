// All messages of a refused submission at the top of the form, each linking to its field (issue
// 9, item 2). Without JavaScript the summary has autofocus, so the page opens here (the form's
// address has no #fehler, which the browser would carry over the redirect to the confirmation);
// with JavaScript the focus moves here. The boxes speak 'du' and the mandate 'Sie', never both in
// one box (DECISIONS.md): the summary names each mandate field to check, in neither form, and
// links to it; the field's own message stands beside it in the mandate's section.
import { useFocusOnAnswer } from "../forms";
import { BOX_FIELDS } from "./box";
import { fieldId, type Errors } from "./fields";
import { SEPA_FIELD_NAMES, SEPA_FIELDS } from "./payment";

function where(path: string) {
  const box = /^boxes\[(\d+)\]\.(child|newGuardian)?/.exec(path);
  if (box) return `Teilnehmer*in ${Number(box[1]) + 1}${box[2] === "child" ? " (neues Kind)" : box[2] === "newGuardian" ? " (neue*r Erziehungsberechtigte*r)" : ""}: `;
  if (path.startsWith("sepa")) return "SEPA-Lastschriftmandat: ";
  return "";
}

/** A mandate field to check, once however many messages it has; the mandate as a whole by its section. */
function sepaEntry(path: string, messages: string[]) {
  const name = SEPA_FIELD_NAMES[path.slice("sepa.".length)];
  if (name) return `${name} prüfen`;
  return messages.some((m) => /\b(Sie|Ihr\w*)\b/.test(m)) ? "Angaben prüfen" : messages.join(" ");
}

/**
 * Where a field is on the page: general messages, the boxes in order (each box's fields as it
 * draws them, a message of the box as a whole first), then the rest of the form.
 */
function order(path: string) {
  const box = /^boxes\[(\d+)\]\.?(.*)$/.exec(path);
  if (box) return 1 + Number(box[1]) + (box[2] ? (BOX_FIELDS.indexOf(box[2]) + 1 || BOX_FIELDS.length + 1) / 100 : 0);
  const rest = ["referral", "paymentMethod", "sepa", "terms"].findIndex((p) => path.startsWith(p));
  // The mandate's fields as they stand in its section (IBAN after the address).
  const inSepa = path.startsWith("sepa.") ? (SEPA_FIELDS.indexOf(path.slice(5)) + 1) / 100 : 0;
  return path === "" || path === "boxes" ? 0 : 100 + (rest < 0 ? 10 : rest) + inSepa;
}

export function ErrorSummary({ errors, stamp }: { errors: Errors; stamp: number | null }) {
  const ref = useFocusOnAnswer<HTMLDivElement>(stamp);
  const entries = Object.entries(errors)
    .sort(([a], [b]) => order(a) - order(b))
    .flatMap(([path, messages]) => (path.startsWith("sepa") ? [{ path, message: sepaEntry(path, messages) }] : messages.map((message) => ({ path, message }))));
  if (entries.length === 0) return null;
  return (
    // eslint-disable-next-line jsx-a11y/no-autofocus -- the answer to a refused submit is this list
    <div id="fehler" ref={ref} tabIndex={-1} autoFocus role="alert" className="flash flash-danger form-alert error-summary" aria-labelledby="fehler-titel">
      <h2 id="fehler-titel">Mindestens ein Feld ist nicht valide</h2>
      {/* In neither form: it introduces the boxes' messages and the mandate's fields alike. */}
      <p>Diese Angaben fehlen oder stimmen nicht:</p>
      <ul>
        {entries.map(({ path, message }) => (
          <li key={`${path}:${message}`}>
            {path === "" || path === "boxes" ? (
              message
            ) : path === "sepa" ? (
              <a href="#sepa">
                {where(path)}
                {message}
              </a>
            ) : (
              <a href={`#${fieldId(path)}`}>
                {where(path)}
                {message}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
