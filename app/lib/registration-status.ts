// A registration's state in words (issue 9, item 7). The spec's check or cross stays beside the
// words; the tone only colours them, it never carries the meaning alone.
export type StatusTone = "ok" | "pending" | "bad";
export type StatusWord = { text: string; done: boolean; tone: StatusTone };

type Registration = { applicationStatus: string; paid: boolean; waitingListPosition: number | null };

export function applicationStatusWord(r: Registration): StatusWord {
  switch (r.applicationStatus) {
    case "accepted":
      return { text: "Bestätigt", done: true, tone: "ok" };
    case "rejected":
      return { text: "Abgelehnt", done: false, tone: "bad" };
    case "cancelled":
      return { text: "Storniert", done: false, tone: "bad" };
    default:
      return r.waitingListPosition !== null
        ? { text: `Warteliste (Platz ${r.waitingListPosition})`, done: false, tone: "pending" }
        : { text: "Anmeldung eingegangen – Bestätigung ausstehend", done: false, tone: "pending" };
  }
}

/** Payment only counts for a registration that holds a place; null for the others. */
export function paymentStatusWord(r: Registration): StatusWord | null {
  if (r.waitingListPosition !== null || r.applicationStatus === "rejected" || r.applicationStatus === "cancelled") return null;
  return r.paid ? { text: "Bezahlt", done: true, tone: "ok" } : { text: "Zahlung ausstehend", done: false, tone: "pending" };
}
