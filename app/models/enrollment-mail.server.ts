// The parent's mail after an enrolment: who got a place, the one total and, for a transfer, the
// association's account and the enrolment's reference (DECISIONS.md, one enrolment, one payment).
import type { PaymentMethod } from "../../db/schema";
import { formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { formatIban } from "~/lib/iban";
import { debitNotice } from "~/lib/creditor-id";
import { isFree, totalCents } from "~/lib/money";
import { settings } from "~/services/env.server";
import { GIROCODE_LINE, girocodeAttachment } from "~/services/girocode.server";
import { GREETING, type MailAttachment } from "~/services/mail.server";

type Created = { firstName: string; lastName: string; waitingListPosition: number | null; amountCents: number | null };

export function confirmationMail({
  account,
  event,
  enrolmentId,
  reference,
  created,
  paymentMethod,
  mandate = null,
}: {
  account: { email: string; firstName: string };
  event: { title: string; dateFrom: string; priceCents: number };
  enrolmentId: number;
  reference: string;
  created: Created[];
  paymentMethod: PaymentMethod;
  /** The SEPA mandate's reference (Mandatsreferenz), for a direct debit. */
  mandate?: string | null;
}) {
  const { bank, appUrl } = settings();
  const total = totalCents(created.map((c) => c.amountCents));
  const placed = created.filter((c) => c.waitingListPosition === null);
  const waiting = created.length - placed.length;
  const free = isFree(event.priceCents, total);
  const lines = created.map((c) =>
    c.waitingListPosition === null
      ? `- ${c.firstName} ${c.lastName}: Anmeldung eingegangen – Bestätigung ausstehend${free ? "" : `, ${formatEuro(c.amountCents ?? 0)}`}`
      : `- ${c.firstName} ${c.lastName}: Warteliste (Platz ${c.waitingListPosition})`,
  );
  // Paragraphs, joined by one blank line each (a paragraph may be left out).
  const payment: string[] = [];
  const attachments: MailAttachment[] = [];
  if (placed.length > 0 && !free) {
    payment.push(`Gesamtbetrag: ${formatEuro(total)}${placed.some((c) => (c.amountCents ?? 0) < event.priceCents) ? " (mit Geschwisterrabatt)" : ""}`);
    if (paymentMethod === "sepa") {
      // What the account holder must be told before the debit (SEPA): who collects, under which mandate.
      payment.push(
        [
          "Der Gesamtbetrag wird einmal per SEPA-Lastschrift von dem angegebenen Konto eingezogen.",
          ...debitNotice(bank, mandate),
        ].join("\n"),
      );
    } else if (total > 0) {
      payment.push(
        [
          `Bitte überweise den Gesamtbetrag in einer Überweisung${placed.length < 2 ? "" : waiting ? " für die Kinder mit Platz" : " für alle Kinder"} auf dieses Konto:`,
          `Kontoinhaber: ${bank.accountHolder}`,
          `IBAN: ${formatIban(bank.iban)}`,
          `BIC: ${bank.bic}`,
          `Bank: ${bank.name}`,
          `Betrag: ${formatEuro(total)}`,
          `Verwendungszweck: ${reference}`,
          GIROCODE_LINE,
        ].join("\n"),
      );
      attachments.push(girocodeAttachment(total, reference));
    }
  }
  if (waiting > 0 && !free) {
    payment.push(`Für ${waiting === 1 ? "das Kind" : "die Kinder"} auf der Warteliste zahlst du erst, wenn ${waiting === 1 ? "es einen Platz bekommt" : "sie einen Platz bekommen"}; wir melden uns dann.`);
  }
  return {
    to: account.email,
    subject: `Anmeldung: ${event.title}`,
    text: [
      `Hallo ${account.firstName},`,
      `vielen Dank für deine Anmeldung zu „${event.title}“ (ab ${formatIsoDate(event.dateFrom)}):`,
      lines.join("\n"),
      ...payment,
      // A child on the waiting list is not confirmed by the leaders until a place is free for it.
      [
        placed.length > 0
          ? "Die Leitung prüft die Anmeldung; ihre Entscheidung bekommst du per E-Mail. Deine Anmeldebestätigung mit dem Stand findest du jederzeit hier:"
          : "Sobald ein Platz frei wird, bekommst du eine E-Mail und kannst ihn annehmen. Deine Anmeldebestätigung mit dem Stand findest du jederzeit hier:",
        `${appUrl}/anmeldung/${enrolmentId}`,
      ].join("\n"),
      GREETING.du,
    ].join("\n\n"),
    attachments,
  };
}
