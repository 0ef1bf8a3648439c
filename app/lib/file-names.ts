// Names people see for uploaded files.

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

/**
 * A display name a person typed for a file: no control characters (line breaks neither), path
 * separators as '_', at most 150 characters, ending in the extension of the file's type.
 */
export function displayFileName(given: string, key: string, fallback = "Datei") {
  // eslint-disable-next-line no-control-regex
  const name = given.replace(/[\u0000-\u001f\u007f]/g, "").replace(/[\\/]/g, "_").trim().slice(0, 150) || fallback;
  return nameWithExtension(name, keyExtension(key));
}
