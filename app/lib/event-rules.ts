// Which buttons a tile of the home list shows (spec part 1, §2 Home event list).
export type TileViewer = { signedIn: boolean; admin: boolean };

export function tileButtons(tile: { past: boolean; requiresApplication: boolean }, viewer: TileViewer) {
  return {
    view: true,
    edit: viewer.admin && !tile.past,
    enroll: viewer.signedIn && tile.requiresApplication && !tile.past,
  };
}

/** Euro amount for people: 249,00 €. */
const euro = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
export function formatEuro(cents: number) {
  return euro.format(cents / 100);
}

/** The price field: up to 6 characters, German decimal comma or point; empty is 0. */
export function parsePriceCents(input: string): number | null {
  const value = input.trim().replace(/\s|€/g, "");
  if (value === "") return 0;
  if (!/^\d{1,6}([.,]\d{1,2})?$/.test(value)) return null;
  const [euros, cents = ""] = value.split(/[.,]/);
  return Number(euros) * 100 + Number(cents.padEnd(2, "0"));
}

export function centsToInput(cents: number) {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2).replace(".", ",");
}

/** The characters of its description an event tile shows (the home list reads one more). */
export const TILE_TEXT = 180;

type Plans = { dateFrom: string; timeFrom: string; dateTo: string | null; timeTo: string | null; location: string };

/** What families plan by that a save changed, named as the event page names it. */
export function plansMoved(before: Plans, after: Plans) {
  return [
    before.dateFrom !== after.dateFrom || before.timeFrom !== after.timeFrom ? "Beginn" : "",
    (before.dateTo ?? null) !== (after.dateTo ?? null) || (before.timeTo ?? null) !== (after.timeTo ?? null) ? "Ende" : "",
    before.location !== after.location ? "Ort" : "",
  ].filter(Boolean);
}
