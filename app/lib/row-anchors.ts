// The ids of the rows of the leaders' lists. A row's forms post to the list with the row's id as
// fragment: without JavaScript the answer (the list again, or its error) opens at that row, not at
// the top of a long list on a phone; a redirect keeps a fragment its Location has none of.

/** A registration's row on the participant list (the table, the waiting list, the rejected). */
export function rowAnchor(registrationId: number) {
  return `anmeldung-${registrationId}`;
}

/** A helper's row on the helper list. */
export function helperAnchor(userId: number) {
  return `helfer-${userId}`;
}
