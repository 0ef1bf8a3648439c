// Characters no one types: control characters and line separators, zero-width spaces, a
// byte-order mark, and the marks that change the direction of text (U+202E makes
// 'Rechnung‮fdp.txt' read as 'Rechnungtxt.pdf', and a child's name with it reads backwards in
// every list). They only disguise text. The zero-width joiners that build emoji and some scripts
// stay. Also the noncharacters U+FDD0–U+FDEF, U+FFFE and U+FFFF, which are no characters at all
// (the last two are not allowed in XML: one in a name broke the Excel lists).

// eslint-disable-next-line no-control-regex
export const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufdd0-\ufdef\ufeff\ufffe\uffff]/g;

/** A field's text without what no one types; its lines and tabs stay (a browser sends a textarea's lines as CR LF). */
export function withoutUnseen(text: string) {
  return text.replace(UNSEEN, (character) => (character === "\n" || character === "\r" || character === "\t" ? character : ""));
}

/** Characters that show nothing: format characters (zero-width space, joiners, marks) and fillers. */
const INVISIBLE = /[\p{Cf}\p{Cc}\u115F\u1160\u2800\u3164\uFFA0]/gu;

/** The characters that show: not spaces, zero-width or filler characters such as U+3164. */
export function visibleCharacters(text: string) {
  return Array.from(text.replace(INVISIBLE, "").replace(/\s/gu, "")).length;
}

/**
 * How a name reads, to compare two: without letter case, with combined letters as one character
 * ("o" with a combining mark is "ö") and without the format characters that show nothing
 * (zero-width joiners). Group names that read alike are one group, on the server and in the field.
 */
export function readsAs(name: string) {
  return name.normalize("NFC").replace(/\p{Cf}/gu, "").toLocaleLowerCase("de");
}

/** Shows at least one character. */
export function hasVisibleCharacter(text: string) {
  return visibleCharacters(text) > 0;
}
