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
