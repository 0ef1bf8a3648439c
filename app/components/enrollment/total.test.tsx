// Before 'Verbindlich Anmelden' the form says what the enrolment will cost (screens' review: with
// two children the total first showed on the confirmation page, after the binding click).
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formTotal } from "~/lib/money";
import { EnrolmentTotal } from "./total";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&nbsp;|\u00a0/g, " ");

describe("formTotal", () => {
  it("adds the boxes' prices with the sibling discount, children on the waiting list left out", () => {
    expect(formTotal({ priceCents: 24900, discountCents: 2500, earlierPlaces: 0, boxes: 2, placesLeft: null })).toEqual({ totalCents: 47300, placed: 2, waiting: 0, discounted: true });
    expect(formTotal({ priceCents: 24900, discountCents: 2500, earlierPlaces: 1, boxes: 1, placesLeft: 5 })).toEqual({ totalCents: 22400, placed: 1, waiting: 0, discounted: true });
    expect(formTotal({ priceCents: 24900, discountCents: 0, earlierPlaces: 0, boxes: 3, placesLeft: 1 })).toEqual({ totalCents: 24900, placed: 1, waiting: 2, discounted: false });
    expect(formTotal({ priceCents: 24900, discountCents: 2500, earlierPlaces: 0, boxes: 2, placesLeft: 0 })).toEqual({ totalCents: 0, placed: 0, waiting: 2, discounted: false });
  });
});

describe("EnrolmentTotal", () => {
  const event = { priceCents: 24900, siblingDiscountCents: 2500 };

  it("names the total, the discount and the children it leaves out", () => {
    expect(text(renderToString(<EnrolmentTotal event={event} placesHeld={0} boxes={2} placesLeft={null} />))).toBe("Zu zahlen: 473,00 € für 2 Teilnehmer*innen, mit Geschwisterrabatt.");
    expect(text(renderToString(<EnrolmentTotal event={event} placesHeld={0} boxes={1} placesLeft={null} />))).toBe("Zu zahlen: 249,00 € für 1 Teilnehmer*in.");
    expect(text(renderToString(<EnrolmentTotal event={event} placesHeld={0} boxes={3} placesLeft={1} />))).toBe(
      "Zu zahlen: 249,00 € für 1 Teilnehmer*in. 2 Kinder kommen voraussichtlich auf die Warteliste; für sie ist erst etwas zu zahlen, wenn sie einen Platz bekommen.",
    );
    // One: singular throughout (parents' walkthrough: "1 kommt …; für sie …, wenn sie … bekommen").
    expect(text(renderToString(<EnrolmentTotal event={event} placesHeld={0} boxes={2} placesLeft={1} />))).toBe(
      "Zu zahlen: 249,00 € für 1 Teilnehmer*in. 1 Kind kommt voraussichtlich auf die Warteliste; für dieses Kind ist erst etwas zu zahlen, wenn es einen Platz bekommt.",
    );
    expect(text(renderToString(<EnrolmentTotal event={event} placesHeld={0} boxes={1} placesLeft={0} />))).toBe(
      "Jetzt ist nichts zu zahlen: Die Anmeldung kommt voraussichtlich auf die Warteliste; zu zahlen ist erst, wenn ein Platz frei wird.",
    );
  });

  // After the deadline there is no waiting list: more children than places are refused, as the
  // form's note says; the total does not promise the list (review).
  it("says nothing of a waiting list after the deadline", () => {
    expect(renderToString(<EnrolmentTotal event={{ ...event, late: true }} placesHeld={0} boxes={3} placesLeft={1} />)).toBe("");
    expect(text(renderToString(<EnrolmentTotal event={{ ...event, late: true }} placesHeld={0} boxes={1} placesLeft={1} />))).toBe("Zu zahlen: 249,00 € für 1 Teilnehmer*in.");
  });

  it("says nothing for a free event", () => {
    expect(renderToString(<EnrolmentTotal event={{ priceCents: 0, siblingDiscountCents: 0 }} placesHeld={0} boxes={2} placesLeft={null} />)).toBe("");
  });
});
