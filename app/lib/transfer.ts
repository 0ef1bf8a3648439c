/**
 * The reference (Verwendungszweck) of one enrolment's bank transfer. It names the enrolment, not
 * a child, so that one transfer for several children can be matched against the bank statement.
 */
export function enrolmentReference(eventId: number, enrolmentId: number) {
  return `LF-${eventId}-A${enrolmentId}`;
}
