// The GiroCode by mail (DECISIONS.md, one enrolment, one payment): a mail that asks for a transfer
// carries the transfer in the outbox, and the mail worker draws it as a PNG when it delivers, so
// no request (an enrolment's burst) spends time on a picture. Mail programs show a PNG attachment
// below the text; SVG or inline data would be blocked by many of them.
import { toPngBuffer } from "lean-qr/extras/node_export";
import { epcCode, epcPayload, type Transfer } from "~/lib/epc-qr";
import { settings } from "./env.server";

export const GIROCODE_FILENAME = "GiroCode.png";

/** The line of the mail's text that names the attachment ('du', as every mail to parents). */
export const GIROCODE_LINE = `GiroCode: im Anhang (${GIROCODE_FILENAME}). Mit deiner Banking-App scannen, dann sind Konto, Betrag und Verwendungszweck schon ausgefüllt.`;

export type GirocodeAttachment = { filename: string; girocode: Transfer };

/** The attachment of a transfer to the association's account (BANK_* settings). */
export function girocodeAttachment(amountCents: number, reference: string): GirocodeAttachment {
  const bank = settings().bank;
  return { filename: GIROCODE_FILENAME, girocode: { bic: bank.bic, name: bank.accountHolder, iban: bank.iban, amountCents, text: reference } };
}

/** The picture: black on white (also in a dark mail program), six pixels a module, four modules of quiet zone. */
export function girocodePng(transfer: Transfer) {
  return Buffer.from(toPngBuffer(epcCode(epcPayload(transfer)), { on: [0, 0, 0, 255], off: [255, 255, 255, 255], pad: 4, scale: 6 }));
}
