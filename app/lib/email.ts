// The spec's simple e-mail pattern: a local part of letters, digits, dot, underscore or
// hyphen; @; a domain; a top-level part of 2 to 6 letters.
export const EMAIL_PATTERN = /^[A-Za-z0-9._-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,6}$/;

/** The longest address mail can carry (RFC 5321's path less its brackets); part 1 sets sign-up no
 * other limit. The account page's own change of address keeps part 2's 50. */
export const EMAIL_MAX = 254;

export function isValidEmail(value: string) {
  return EMAIL_PATTERN.test(value.trim());
}

/** Addresses are compared case-insensitively and stored lower-case. */
export function normalizeEmail(value: string) {
  return value.trim().toLowerCase();
}
