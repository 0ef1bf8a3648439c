// A registration's state in words (issue 9, item 7). The spec's check or cross stays beside the
// words; the tone only colours them, it never carries the meaning alone.
import { formatDate, formatTime } from "./dates";

export type StatusTone = "ok" | "pending" | "bad";
export type StatusWord = { text: string; done: boolean; tone: StatusTone };

type Registration = {
  applicationStatus: string;
  paid: boolean;
  waitingListPosition: number | null;
  /** Set while a freed place is offered to this waiting registration. */
  offerExpiresAt?: Date | string | number | null;
  /** The event has begun: a waiting registration gets no place any more. */
  eventStarted?: boolean;
  /** What its place costs, where known: nothing to pay (a free event), no payment state. */
  amountCents?: number | null;
};

/**
 * The mark beside the words: ✓ for done, ✗ only for a refusal or cancellation, and a neutral ○
 * for what is still open (pending, waiting, offered, payment due), so that a parent right after
 * enrolling sees no crosses.
 */
export function statusMark(word: StatusWord): "✓" | "✗" | "○" {
  if (word.done) return "✓";
  return word.tone === "bad" ? "✗" : "○";
}

/** Is a place offered to it right now (waiting, with an offer deadline)? */
export function isOffered(r: Registration) {
  return r.applicationStatus === "open" && r.waitingListPosition !== null && r.offerExpiresAt != null;
}

/**
 * The registration's state in words, for the parent (their account) or the leaders (lists,
 * details): an offered place asks the parent to take it, and tells the leaders it is offered.
 */
export function applicationStatusWord(r: Registration, reader: "parent" | "leaders" = "parent"): StatusWord {
  switch (r.applicationStatus) {
    case "accepted":
      return { text: "Bestätigt", done: true, tone: "ok" };
    case "rejected":
      return { text: "Abgelehnt", done: false, tone: "bad" };
    case "cancelled":
      return { text: "Storniert", done: false, tone: "bad" };
    default:
      if (isOffered(r) && reader === "leaders") return { text: "Warteliste – Platz angeboten", done: false, tone: "pending" };
      if (isOffered(r)) {
        const until = new Date(r.offerExpiresAt!);
        return { text: `Platz frei – bitte bis ${formatDate(until)}, ${formatTime(until)} annehmen`, done: false, tone: "pending" };
      }
      if (r.waitingListPosition !== null && r.eventStarted) return { text: "Warteliste – kein Platz frei geworden", done: false, tone: "bad" };
      return r.waitingListPosition !== null
        ? { text: `Warteliste (Platz ${r.waitingListPosition})`, done: false, tone: "pending" }
        : { text: "Anmeldung eingegangen – Bestätigung ausstehend", done: false, tone: "pending" };
  }
}

/** Payment only counts for a registration that holds a place; null for the others. */
export function paymentStatusWord(r: Registration): StatusWord | null {
  if (r.waitingListPosition !== null || r.applicationStatus === "rejected" || r.applicationStatus === "cancelled" || r.amountCents === 0) return null;
  return r.paid ? { text: "Bezahlt", done: true, tone: "ok" } : { text: "Zahlung ausstehend", done: false, tone: "pending" };
}
