// What the enrolment will cost, above 'Verbindlich Anmelden' (DECISIONS.md 'One enrolment, one
// payment'): the boxes' prices with the sibling discount, children expected on the waiting list
// left out. Drawn by the server for the boxes the form has (adding one is a round trip).
import { formatEuro } from "~/lib/event-rules";
import { formTotal } from "~/lib/money";

type Props = { event: { priceCents: number; siblingDiscountCents: number; late?: boolean }; placesHeld: number; boxes: number; placesLeft: number | null };

export function EnrolmentTotal({ event, placesHeld, boxes, placesLeft }: Props) {
  if (event.priceCents === 0) return null;
  // After the deadline there is no waiting list: the form's note says that more are refused.
  if (event.late && placesLeft !== null && boxes > placesLeft) return null;
  const total = formTotal({ priceCents: event.priceCents, discountCents: event.siblingDiscountCents, earlierPlaces: placesHeld, boxes, placesLeft });
  if (total.placed === 0) {
    return (
      <p className="enroll-total">
        Jetzt ist nichts zu zahlen: Die Anmeldung kommt voraussichtlich auf die Warteliste; zu zahlen ist erst, wenn ein Platz frei wird.
      </p>
    );
  }
  const who = total.placed === 1 ? "1 Teilnehmer*in" : `${total.placed} Teilnehmer*innen`;
  return (
    <p className="enroll-total">
      <strong>Zu zahlen: {formatEuro(total.totalCents)}</strong> für {who}
      {total.discounted ? ", mit Geschwisterrabatt." : "."}
      {total.waiting === 1 ? " 1 Kind kommt voraussichtlich auf die Warteliste; für dieses Kind ist erst etwas zu zahlen, wenn es einen Platz bekommt." : ""}
      {total.waiting > 1 ? ` ${total.waiting} Kinder kommen voraussichtlich auf die Warteliste; für sie ist erst etwas zu zahlen, wenn sie einen Platz bekommen.` : ""}
    </p>
  );
}
