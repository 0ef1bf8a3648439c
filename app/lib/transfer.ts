/**
 * The reference (Verwendungszweck) of one enrolment's bank transfer. It names the enrolment, not
 * a child, so that one transfer for several children can be matched against the bank statement.
 */
export function enrolmentReference(eventId: number, enrolmentId: number) {
  return `LF-${eventId}-A${enrolmentId}`;
}

/**
 * The enrolment reference in a text as a bank statement gives it ("LF-12-A345", "lf 12 a 345",
 * with the payer's words around it): its event and enrolment; null when it holds none.
 */
export function referenceParts(text: string): { eventId: number; enrolmentId: number } | null {
  const found = /(?<![\p{L}\p{N}])lf\W*(\d{1,9})\W*a\W*(\d{1,9})(?!\p{N})/iu.exec(text);
  return found ? { eventId: Number(found[1]), enrolmentId: Number(found[2]) } : null;
}

/** The enrolment reference in a text (see referenceParts), in the form above; null when none. */
export function referenceIn(text: string): string | null {
  const parts = referenceParts(text);
  return parts ? enrolmentReference(parts.eventId, parts.enrolmentId) : null;
}
