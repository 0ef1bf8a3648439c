// GiroCode (EPC QR code, EPC069-12 version 002): banking apps read the transfer from it. Drawn on
// the server as one SVG path, so it shows without JavaScript and prints sharp.
import qrcode from "qrcode-generator";
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

/** The dark modules of a QR code as an SVG path on a grid of `size` × `size` (4 modules margin). */
export function qrPath(text: string) {
  const code = qrcode(0, "M");
  // The library writes each character as one byte: hand it the UTF-8 bytes as characters.
  code.addData(String.fromCharCode(...new TextEncoder().encode(text)), "Byte");
  code.make();
  const count = code.getModuleCount();
  const margin = 4;
  let d = "";
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (code.isDark(row, col)) d += `M${col + margin} ${row + margin}h1v1h-1z`;
    }
  }
  return { size: count + 2 * margin, d };
}
