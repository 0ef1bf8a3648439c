/** Age in whole years on `onDate` (both YYYY-MM-DD): the birthday itself counts. */
export function ageOn(birthDate: string, onDate: string) {
  const [by, bm, bd] = birthDate.split("-").map(Number);
  const [y, m, d] = onDate.split("-").map(Number);
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age--;
  return age;
}

/** A guardian is needed for every participant under 18 at the event's start. */
export function needsGuardian(birthDate: string, eventStart: string) {
  return ageOn(birthDate, eventStart) < 18;
}
