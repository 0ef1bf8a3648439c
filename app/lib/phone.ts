// A person's own phone (users.phone, for the camp sheet): one rule wherever it is typed, on the
// account page and in the helper checks. Digits with the usual separators; a guardian's phones
// in the enrolment stay free text, as the spec has them.
export const OWN_PHONE = /^\+?[0-9 ()/-]{3,50}$/;
export const OWN_PHONE_MESSAGE = "Bitte gib eine Telefonnummer aus Ziffern an (höchstens 50 Zeichen).";

export const isOwnPhone = (value: string) => OWN_PHONE.test(value);
