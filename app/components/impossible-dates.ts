// A date the calendar does not have ("30.02.2016"), or one typed only in part, in the browser's
// own date or time field: the browser sends the field empty, so the server asked for a date the
// person had just typed ("Bitte gib das Geburtsdatum an."). Only the browser knows what was typed
// (`validity.badInput`), so with JavaScript every form of the app sends such a field as this
// value instead: not a date, so the server's check says "Bitte gib ein gültiges Geburtsdatum an." (or
// its time's words) next to the field. Without JavaScript the browser sends it empty, as before.
import { useEffect } from "react";

/** What a date or time field the browser could not read is sent as. */
export const NOT_A_DATE = "ungültig";

function sendImpossibleDates(event: Event) {
  const { formData, target } = event as FormDataEvent;
  if (!(target instanceof HTMLFormElement)) return;
  for (const field of Array.from(target.elements)) {
    if (field instanceof HTMLInputElement && (field.type === "date" || field.type === "time") && field.name && !field.disabled && field.validity.badInput) {
      formData.set(field.name, NOT_A_DATE);
    }
  }
}

/**
 * Every form's data passes here as it is gathered (the `formdata` event, fired by a plain submit
 * and by Remix's `new FormData(form)` alike).
 */
export function useImpossibleDatesSent() {
  useEffect(() => {
    document.addEventListener("formdata", sendImpossibleDates);
    return () => document.removeEventListener("formdata", sendImpossibleDates);
  }, []);
}
