// Names people see for uploaded files.
import { UNSEEN } from "./unseen";

/**
 * A display name that ends in the extension of the type found in the content, so that a text
 * file named 'bild.png' downloads as 'bild.png.txt' and opens with the right program.
 */
export function nameWithExtension(name: string, extension: string) {
  const lower = name.toLowerCase();
  const same = lower.endsWith(`.${extension}`) || (extension === "jpg" && lower.endsWith(".jpeg"));
  return same ? name : `${name}.${extension}`;
}

/** The extension of a stored file's key ('…-abc.pdf' → 'pdf'): the type found in its content. */
export function keyExtension(key: string) {
  return key.slice(key.lastIndexOf(".") + 1);
}

/** At most `max` characters, cut between whole characters (an emoji is two UTF-16 units). */
function firstCharacters(text: string, max: number) {
  return text.length <= max ? text : Array.from(text).slice(0, max).join("");
}

/**
 * A display name a person typed for a file: nothing unseen, path separators as '_', at most 150
 * characters, ending in the extension of the file's type.
 */
export function displayFileName(given: string, key: string, fallback = "Datei") {
  const name = firstCharacters(given.replace(UNSEEN, "").replace(/[\\/]/g, "_").trim(), 150) || fallback;
  return nameWithExtension(name, keyExtension(key));
}

/** The name a browser sent with an upload: only its last path segment, nothing unseen, at most 150 characters. */
export function uploadedFileName(sent: string) {
  const base = sent.split(/[\\/]/).pop() ?? "";
  return firstCharacters(base.replace(UNSEEN, "").trim(), 150) || "Datei";
}
