// An amount for people where none may be stored: a registration without a place has no amount
// yet. The detail, the SEPA page and the participant list all show '–' for it, never '0,00 €'.
import { formatEuro } from "./event-rules";

export const NO_AMOUNT = "–";

/** '249,00 €', or '–' when no amount is stored (null). */
export function formatAmount(cents: number | null | undefined) {
  return cents === null || cents === undefined ? NO_AMOUNT : formatEuro(cents);
}

/** The sum of the children's amounts, or '–' when none of them has one stored. */
export function formatTotal(amounts: (number | null)[]) {
  const stored = amounts.filter((cents): cents is number => cents !== null);
  return stored.length ? formatEuro(stored.reduce((sum, cents) => sum + cents, 0)) : NO_AMOUNT;
}
