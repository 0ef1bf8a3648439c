// The order of 'Meine angemeldeten Teilnehmer*innen' on the event page: confirmed and paid
// first, then confirmed and unpaid, unconfirmed and paid, and neither.
type Sortable = { applicationStatus: string; paid: boolean; lastName: string; firstName: string };

export function registrationRank(r: { applicationStatus: string; paid: boolean }) {
  const confirmed = r.applicationStatus === "accepted";
  if (confirmed && r.paid) return 1;
  if (confirmed) return 2;
  if (r.paid) return 3;
  return 4;
}

export function sortMyRegistrations<T extends Sortable>(rows: T[]): T[] {
  return [...rows].sort(
    (a, b) =>
      registrationRank(a) - registrationRank(b) ||
      a.lastName.localeCompare(b.lastName, "de") ||
      a.firstName.localeCompare(b.firstName, "de"),
  );
}
