// Money of one enrolment in whole cents (DECISIONS.md: one enrolment, one payment; sibling
// discount). Never floating point: 0.1 + 0.2 is not a price.

/**
 * What each child of one enrolment costs, in the order of the boxes. The account's first child
 * holding a place at the event pays the full price, each further one the price less the sibling
 * discount (never below 0). A child on the waiting list (`placed` false) costs nothing now: null.
 * `earlierPlaces` counts the account's children that already hold a place at this event.
 */
export function childAmounts(priceCents: number, discountCents: number, earlierPlaces: number, placed: boolean[]): (number | null)[] {
  let places = earlierPlaces;
  return placed.map((hasPlace) => {
    if (!hasPlace) return null;
    const amount = places === 0 ? priceCents : Math.max(0, priceCents - discountCents);
    places++;
    return amount;
  });
}

/** The total of the children holding a place; waiting children are not part of it. */
export function totalCents(amounts: (number | null)[]) {
  return amounts.reduce<number>((sum, amount) => sum + (amount ?? 0), 0);
}

/**
 * What the enrolment form will cost, as far as the form can know: its boxes take the places left
 * in order (null: no limit), the rest goes on the waiting list and is not part of the total.
 */
export function formTotal(form: { priceCents: number; discountCents: number; earlierPlaces: number; boxes: number; placesLeft: number | null }) {
  const placed = form.placesLeft === null ? form.boxes : Math.min(form.boxes, Math.max(0, form.placesLeft));
  const amounts = childAmounts(form.priceCents, form.discountCents, form.earlierPlaces, Array.from({ length: form.boxes }, (_, i) => i < placed));
  const discounted = amounts.some((amount) => amount !== null && amount < form.priceCents);
  return { totalCents: totalCents(amounts), placed, waiting: form.boxes - placed, discounted };
}

/** The amount as an EPC QR code wants it: EUR12.50 (no thousands separator). */
export function epcAmount(cents: number) {
  return `EUR${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** A free event: nothing to pay for anyone, so its pages and mails speak of no money at all. */
export function isFree(priceCents: number, totalCents: number) {
  return priceCents === 0 && totalCents === 0;
}
