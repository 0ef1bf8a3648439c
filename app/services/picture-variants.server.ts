// An event picture's small WebP versions (480 and 960 pixels wide), the only form in which a
// picture is shown: the original is never sent. sharp decodes the whole picture, and its header
// alone decides how much memory that takes (a few KB could ask for gigabytes), so pictures of
// more than MAX_PICTURE_PIXELS are refused from the header, before decoding.
import sharp from "sharp";

/** A phone's photo has 12 to 50 million pixels. */
export const MAX_PICTURE_PIXELS = 50_000_000;

export type VariantProblem = "too-many-pixels" | "unreadable" | "not-written";

/** Writes each width's WebP to `target(width)`; the problem when it cannot. */
export async function writePictureVariants(source: string, widths: readonly number[], target: (width: number) => string): Promise<VariantProblem | null> {
  try {
    for (const width of widths) {
      await sharp(source, { animated: false, limitInputPixels: MAX_PICTURE_PIXELS })
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 75 })
        .toFile(target(width));
    }
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) return "not-written"; // sharp's own errors carry no code
    return /pixel limit/i.test(String((error as Error).message)) ? "too-many-pixels" : "unreadable";
  }
}
