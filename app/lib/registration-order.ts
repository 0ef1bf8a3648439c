// The order of 'Meine angemeldeten Teilnehmer*innen' on the event page: confirmed and paid
// first, then confirmed and unpaid, unconfirmed and paid, and neither; among the last, those
// waiting for the decision before the waiting list, and turned-down ones at the end.
type Sortable = { applicationStatus: string; paid: boolean; lastName: string; firstName: string; waitingListPosition?: number | null };

export function registrationRank(r: { applicationStatus: string; paid: boolean; waitingListPosition?: number | null }) {
  const confirmed = r.applicationStatus === "accepted";
  if (confirmed && r.paid) return 1;
  if (confirmed) return 2;
  if (r.paid) return 3;
  if (r.applicationStatus === "rejected" || r.applicationStatus === "cancelled") return 4.2;
  return r.waitingListPosition != null ? 4.1 : 4;
}

export function sortMyRegistrations<T extends Sortable>(rows: T[]): T[] {
  return [...rows].sort(
    (a, b) =>
      registrationRank(a) - registrationRank(b) ||
      (a.waitingListPosition ?? 0) - (b.waitingListPosition ?? 0) ||
      a.lastName.localeCompare(b.lastName, "de") ||
      a.firstName.localeCompare(b.firstName, "de"),
  );
}
