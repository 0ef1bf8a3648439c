/**
 * The reference (Verwendungszweck) of one enrolment's bank transfer. It names the enrolment, not
 * a child, so that one transfer for several children can be matched against the bank statement.
 */
export function enrolmentReference(eventId: number, enrolmentId: number) {
  return `LF-${eventId}-A${enrolmentId}`;
}

/**
 * An enrolment reference in a text as a bank statement gives it ("LF-12-A345", "lf 12 a 345"),
 * also written right after a number or another reference ("LF-12-A345LF-12-A346").
 */
const REFERENCE = /(?<!\p{L})lf\W*(\d{1,9})\W*a\W*(\d{1,9})(?!\p{N})/giu;

/**
 * The enrolment references in a text (a statement's line, with the payer's words around them;
 * one transfer may pay two enrolments): each one's event and enrolment, once, in the line's order.
 */
export function referencesIn(text: string): { eventId: number; enrolmentId: number; reference: string }[] {
  const found = new Map<string, { eventId: number; enrolmentId: number; reference: string }>();
  for (const match of text.matchAll(REFERENCE)) {
    const [eventId, enrolmentId] = [Number(match[1]), Number(match[2])];
    const reference = enrolmentReference(eventId, enrolmentId);
    if (!found.has(reference)) found.set(reference, { eventId, enrolmentId, reference });
  }
  return [...found.values()];
}

