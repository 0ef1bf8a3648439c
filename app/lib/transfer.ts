/**
 * The reference (Verwendungszweck) of one enrolment's bank transfer. It names the enrolment, not
 * a child, so that one transfer for several children can be matched against the bank statement.
 */
export function enrolmentReference(eventId: number, enrolmentId: number) {
  return `LF-${eventId}-A${enrolmentId}`;
}

/**
 * The enrolment reference in a text as a bank statement gives it ("LF-12-A345", "lf 12 a 345",
 * with the payer's words around it), in the form above; null when it holds none.
 */
export function referenceIn(text: string): string | null {
  const found = /(?<![\p{L}\p{N}])lf\W*(\d+)\W*a\W*(\d+)(?!\p{N})/iu.exec(text);
  return found ? enrolmentReference(Number(found[1]), Number(found[2])) : null;
}
