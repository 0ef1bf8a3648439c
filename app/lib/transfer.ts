/** The reference a bank transfer names, so the treasurer can match the payment. */
export function transferReference(registrationId: number, eventId: number) {
  return `LF-${eventId}-${registrationId}`;
}
