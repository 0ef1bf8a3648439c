// A person's own phone (users.phone, for the camp sheet): one rule wherever it is typed, on the
// account page and in the helper checks. Digits with the usual separators; a guardian's phones
// in the enrolment stay free text, as the spec has them.
const OWN_PHONE = /^\+?[0-9 ()/-]+$/;
export const OWN_PHONE_MESSAGE = "Bitte gib eine Telefonnummer aus Ziffern an (höchstens 50 Zeichen).";

/** At least three digits, at most 50 characters in all. */
export const isOwnPhone = (value: string) => value.length <= 50 && OWN_PHONE.test(value) && (value.match(/\d/g)?.length ?? 0) >= 3;
