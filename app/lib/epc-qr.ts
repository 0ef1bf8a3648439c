// GiroCode (EPC QR code, EPC069-12 version 002): banking apps read the transfer from it. Drawn on
// the server as one SVG path, so it shows without JavaScript and prints sharp.
import { correction, generate, mode } from "lean-qr";
import { epcAmount } from "./money";

export type Transfer = { bic: string; name: string; iban: string; amountCents: number; text: string };

/** The text of the code: one field per line, as the standard orders them. */
export function epcPayload({ bic, name, iban, amountCents, text }: Transfer) {
  return [
    "BCD",
    "002",
    "1", // UTF-8
    "SCT",
    bic.replace(/\s/g, ""),
    name.slice(0, 70),
    iban.replace(/\s/g, "").toUpperCase(),
    epcAmount(amountCents),
    "", // purpose code
    "", // structured reference (none: ours is free text)
    text.slice(0, 140),
  ].join("\n");
}

/** The QR code of a text, at level M as the EPC guideline asks; the mask is chosen as ISO 18004 says (the lowest penalty). */
export function epcCode(text: string) {
  return generate(mode.bytes(new TextEncoder().encode(text)), { minCorrectionLevel: correction.M, maxCorrectionLevel: correction.M });
}

/**
 * The dark modules of a QR code as one SVG path on a grid of `size` × `size` (4 modules margin),
 * each row's neighbouring dark modules drawn as one run: half the bytes of a square each.
 */
export function qrPath(text: string) {
  const code = epcCode(text);
  const margin = 4;
  let d = "";
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (!code.get(x, y)) continue;
      const start = x;
      while (x + 1 < code.size && code.get(x + 1, y)) x++;
      const width = x - start + 1;
      d += `M${start + margin} ${y + margin}h${width}v1h-${width}z`;
    }
  }
  return { size: code.size + 2 * margin, d };
}
