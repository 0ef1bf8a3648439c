// A record's id as an address or a form writes it.

/**
 * The id in `value`: digits only, no sign, no leading zero, a safe integer. "1e0", "0x1", "01",
 * " 1" and "1.0" are no ids (Number() took them all, so one record had many addresses).
 */
export function idFrom(value: unknown): number | null {
  if (typeof value !== "string" || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}
