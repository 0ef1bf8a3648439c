// A free event owes nothing: no "Zahlung ausstehend" on the event page, in the family's account
// or on the leaders' list, and its families are not "unpaid" (the list's count and filter, the
// event mail's audience). A priced event beside it keeps all of them.
import { beforeEach, describe, expect, it } from "vitest";
import { participants, registrations, sepaMandates } from "../../db/schema";
import { rowColour } from "~/components/review-table";
import { confirmMandatePayments, decide } from "~/models/registration-decision.server";
import { paymentStatusWord } from "~/lib/registration-status";
import { mailAddresses } from "~/models/event-mail.server";
import { getEventPage } from "~/models/event.server";
import { getFamily } from "~/models/family.server";
import { getParticipantList, openSepaMandates } from "~/models/review.server";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase } from "../support/fixtures";

beforeEach(() => resetDatabase());

async function enrolled(priceCents: number) {
  const user = await createUser();
  const session = { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: "user" as const };
  const camp = createEvent({ title: priceCents ? "Zeltlager" : "Spielenachmittag", priceCents, capacity: 10 });
  const child = db.insert(participants).values({ userId: user.id, firstName: "Mia", lastName: "Muster", street: "S 1", city: "K", birthDate: "2015-01-01" }).returning().get();
  db.insert(registrations).values({ eventId: camp.id, participantId: child.id, userId: user.id, paymentMethod: "transfer", applicationStatus: "accepted", amountCents: priceCents }).run();
  return { user, session, camp };
}

const word = (r: Parameters<typeof paymentStatusWord>[0]) => paymentStatusWord(r)?.text ?? null;

describe.each([
  { priceCents: 0, shown: null, unpaid: 0 },
  { priceCents: 24500, shown: "Zahlung ausstehend", unpaid: 1 },
])("an accepted child of an event costing $priceCents cents", ({ priceCents, shown, unpaid }) => {
  it("shows its payment state on the event page and in the family's account accordingly", async () => {
    const { user, session, camp } = await enrolled(priceCents);
    expect(getEventPage(camp.id, session)!.myRegistrations.map(word)).toEqual([shown]);
    expect(getFamily(user.id).children[0]!.registrations.map(word)).toEqual([shown]);
  });

  it("counts, filters and mails it as unpaid on the leaders' side accordingly", async () => {
    const { user, camp } = await enrolled(priceCents);
    const all = getParticipantList(camp.id, camp.capacity, { filter: "alle", search: "", page: 1 }, false);
    expect(all.table.map(word)).toEqual([shown]);
    expect(all.counts.unpaid).toBe(unpaid);
    expect(getParticipantList(camp.id, camp.capacity, { filter: "unbezahlt", search: "", page: 1 }, false).table).toHaveLength(unpaid);
    expect(mailAddresses(camp.id, "unpaid")).toEqual(unpaid ? [user.email] : []);
  });
});

describe("a free place on the leaders' side (helper review)", () => {
  it("has no payment to confirm, is done once accepted, and its mandate is no open debit", async () => {
    const lead = await createUser({ role: "admin" });
    const actor = { id: lead.id, email: lead.email, firstName: lead.firstName, lastName: lead.lastName, role: "admin" as const };
    const { user, camp } = await enrolled(0);
    const mandate = db.insert(sepaMandates).values({ userId: user.id, eventId: camp.id, firstName: "Eva", lastName: "Muster", street: "Weg 1", postalCode: "24103", city: "Kiel", iban: "DE02120300000000202051" }).returning().get();
    db.update(registrations).set({ paymentMethod: "sepa", sepaMandateId: mandate.id }).run();
    const row = getParticipantList(camp.id, camp.capacity, { filter: "alle", search: "", page: 1 }, true);
    expect(rowColour(row.table[0]!)).toBe("row-green");
    expect(openSepaMandates(camp.id)).toEqual([]);
    expect(decide(camp.id, row.table[0]!.id, "confirm-payment", actor)).toEqual({ ok: false, status: 409, message: "Diese Anmeldung kostet nichts: Es gibt keine Zahlung zu bestätigen." });
    expect(confirmMandatePayments(camp.id, mandate.id, actor)).toMatchObject({ ok: true, changed: false });
    expect(db.select({ paid: registrations.paid }).from(registrations).all()).toEqual([{ paid: false }]);
  });
});

