// The creditor identifier (Gläubiger-Identifikationsnummer) of a SEPA direct debit: country,
// two check digits, a three-character business code that the check leaves out, and the national
// part (EPC262-08; a German one has 18 characters). Checked like an IBAN, modulo 97.

/** Upper case, without spaces: as banks write it. */
export function normalCreditorId(value: string) {
  return value.replace(/\s+/g, "").toUpperCase();
}

export function isValidCreditorId(value: string) {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$/.test(value)) return false;
  if (value.startsWith("DE") && value.length !== 18) return false;
  const digits = (value.slice(7) + value.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/** A mandate's reference (Mandatsreferenz): the event and the mandate, unique and at most 35 characters. */
export function mandateReference(eventId: number, mandateId: number) {
  return `LF-${eventId}-M${mandateId}`;
}

/**
 * What a mail tells the account holder before a debit, as SEPA asks: who collects, under which
 * identifier and mandate (the enrolment's mail and each later one).
 */
export function debitNotice(bank: { accountHolder: string; creditorId: string }, mandate: string | null) {
  return [`Zahlungsempfänger: ${bank.accountHolder}`, `Gläubiger-Identifikationsnummer: ${bank.creditorId}`, ...(mandate ? [`Mandatsreferenz: ${mandate}`] : [])];
}
