// A SEPA direct debit needs the creditor identifier and the mandate's reference, told to the
// account holder before the first debit (SEPA rulebook; the spec is silent). The association's
// identifier is a setting (BANK_CREDITOR_ID); each mandate's reference names the event and the
// mandate (LF-{event}-M{mandate}). The form, the enrolment's mail and confirmation page, and the
// leaders' SEPA page name both.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { participants, registrations, sepaMandates } from "../../db/schema";
import { decide } from "~/models/registration-decision.server";
import type { SessionUser } from "~/models/user.server";
import { loader as confirmationLoader } from "~/routes/anmeldung.$enrolmentId";
import { action as enrollAction, loader as enrollLoader } from "~/routes/enroll.$eventId";
import { loader as sepaLoader } from "~/routes/freizeit.$id_.sepa.$sepaId";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, outbox, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

async function sepaEnrolment({ capacity = 5, children = ["Anna"] } = {}) {
  const leader = await createUser({ firstName: "Lea" });
  const lead: SessionUser = { id: leader.id, email: leader.email, firstName: leader.firstName, lastName: leader.lastName, role: "user" };
  const parent = await createUser({ firstName: "Eva" });
  const cookie = await sessionCookieFor(parent.id);
  const camp = createEvent({ ownerIds: [lead.id], capacity, priceCents: 20000 });
  const kids = children.map((firstName) =>
    db.insert(participants).values({ userId: parent.id, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get(),
  );
  const fields = {
    submissionKey: `glaeubiger-${Date.now()}-abcdef`,
    referral: "",
    paymentMethod: "sepa",
    terms: "on",
    intent: "submit",
    ...Object.fromEntries(kids.map((kid, i) => [`boxes[${i}].participant`, String(kid.id)])),
    "sepa.firstName": "Eva",
    "sepa.lastName": "Muster",
    "sepa.street": "Weg 1",
    "sepa.postalCode": "24103",
    "sepa.city": "Kiel",
    "sepa.iban": "DE89370400440532013000",
    "sepa.consentMandate": "on",
    "sepa.consentPrivacy": "on",
  };
  const response = await run(enrollAction, post(`/enroll/${camp.id}`, fields, { cookie, params: { eventId: String(camp.id) } }));
  expect(response.status).toBe(302);
  const mandate = db.select().from(sepaMandates).where(eq(sepaMandates.userId, parent.id)).get()!;
  return { lead, leader, cookie, camp, mandate, location: response.headers.get("Location")! };
}

describe("the creditor identifier and the mandate's reference", () => {
  it("are in the enrolment's mail and on its confirmation page", async () => {
    const { cookie, camp, mandate, location } = await sepaEnrolment();
    const reference = `LF-${camp.id}-M${mandate.id}`;
    const [mail] = outbox();
    expect(mail.text).toContain(`Gläubiger-Identifikationsnummer: DE98ZZZ09999999999\nMandatsreferenz: ${reference}`);
    const answer = await run(confirmationLoader, get(location, { cookie, params: { enrolmentId: location.split("/").pop()! } }));
    const raw = await answer.text();
    const page = JSON.parse(raw) as { enrolment: { mandateReference: string | null; debitAccount: string | null }; bank: { creditorId: string } };
    expect(page.enrolment.mandateReference).toBe(reference);
    expect(page.bank.creditorId).toBe("DE98ZZZ09999999999");
    // Which account is debited, shortened (parents' review): never the whole IBAN in the page.
    expect(page.enrolment.debitAccount).toBe("DE89 … 3000");
    expect(raw).not.toContain("DE89370400440532013000");
  });

  it("are in the mail that asks for a child moved up later", async () => {
    const { lead, camp, mandate } = await sepaEnrolment({ capacity: 1, children: ["Anna", "Ben"] });
    const ben = db.select().from(registrations).where(eq(registrations.eventId, camp.id)).orderBy(registrations.id).all()[1];
    expect(decide(camp.id, ben.id, "move-up", lead, "", new Date(), { addPlace: true })).toMatchObject({ ok: true });
    const [mail] = outbox();
    expect(mail.subject).toMatch(/^Nachgerückt: Ben Muster/);
    expect(mail.text).toContain(`Der Betrag von 200,00\u00a0€ für Ben wird per SEPA-Lastschrift von dem angegebenen Konto eingezogen.`);
    expect(mail.text).toContain(`Gläubiger-Identifikationsnummer: DE98ZZZ09999999999\nMandatsreferenz: LF-${camp.id}-M${mandate.id}`);
  });

  it("are on the leaders' SEPA page, with the day the mandate was given", async () => {
    const { leader, camp, mandate } = await sepaEnrolment();
    const detail = await body<{ mandate: { reference: string; givenOn: string }; creditorId: string }>(
      await run(sepaLoader, get(`/freizeit/${camp.id}/sepa/${mandate.id}`, { cookie: await sessionCookieFor(leader.id), params: { id: String(camp.id), sepaId: String(mandate.id) } })),
    );
    expect(detail.mandate.reference).toBe(`LF-${camp.id}-M${mandate.id}`);
    expect(detail.mandate.givenOn).toBe(mandate.createdAt.toISOString());
    expect(detail.creditorId).toBe("DE98ZZZ09999999999");
  });

  it("the identifier is in the form's mandate text", async () => {
    const { cookie, camp } = await sepaEnrolment();
    const form = await body<{ creditorId: string }>(await run(enrollLoader, get(`/enroll/${camp.id}`, { cookie, params: { eventId: String(camp.id) } })));
    expect(form.creditorId).toBe("DE98ZZZ09999999999");
  });
});
