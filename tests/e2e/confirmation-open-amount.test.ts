// One enrolment, one payment, on a phone: the first child is paid for, the second moves up from
// the waiting list later; the confirmation page asks only for the second child's amount (mail
// review: it asked for both again, the GiroCode too), with JavaScript and without, at 360 px.
import { describe, expect, inject, it } from "vitest";
import { eq } from "drizzle-orm";
import { participants, registrations } from "../../db/schema";
import { decide } from "~/models/registration-decision.server";
import { action as enrollAction } from "~/routes/enroll.$eventId";
import { db } from "~/services/db.server";
import { fileBrowser, JS_MODES, phoneTab } from "../support/browser";
import { createEvent } from "../support/events";
import { createUser, sessionCookieFor } from "../support/fixtures";
import { post, run } from "../support/remix";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

/** Anna gets a place with the enrolment, Ben waits (one place); returns the confirmation's address. */
async function twoChildren(title: string, paymentMethod: "transfer" | "sepa" = "transfer") {
  const leader = await createUser({ firstName: "Lea" });
  const lead = { id: leader.id, email: leader.email, firstName: leader.firstName, lastName: leader.lastName, role: "user" as const };
  const parent = await createUser({ firstName: "Eva" });
  const camp = createEvent({ title, ownerIds: [lead.id], capacity: 1, priceCents: 20000, siblingDiscountCents: 2000 });
  const [anna, ben] = ["Anna", "Ben"].map(
    (firstName) => db.insert(participants).values({ userId: parent.id, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get(),
  );
  const fields = { submissionKey: `offen-${Date.now()}-${title.length}${title.endsWith("A") ? "a" : "b"}-abcdef`, referral: "", paymentMethod, terms: "on", intent: "submit", "boxes[0].participant": String(anna.id), "boxes[1].participant": String(ben.id) };
  const mandate = { "sepa.firstName": "Eva", "sepa.lastName": "Muster", "sepa.street": "Weg 1", "sepa.postalCode": "24103", "sepa.city": "Kiel", "sepa.iban": "DE02120300000000202051", "sepa.consentMandate": "on", "sepa.consentPrivacy": "on" };
  if (paymentMethod === "sepa") Object.assign(fields, mandate);
  const enrolled = await run(enrollAction, post(`/enroll/${camp.id}`, fields, { cookie: await sessionCookieFor(parent.id), params: { eventId: String(camp.id) } }));
  const [annaReg, benReg] = db.select().from(registrations).where(eq(registrations.eventId, camp.id)).orderBy(registrations.id).all();
  return { lead, parent, camp, annaReg, benReg, location: enrolled.headers.get("Location")! };
}

describe.each(JS_MODES)("the confirmation page $name", ({ javaScriptEnabled }) => {
  it("asks in two transfers, as the mails did, when a child moved up before anything was paid", async () => {
    const { lead, parent, camp, benReg, location } = await twoChildren(`Kanufreizeit ${javaScriptEnabled ? "A" : "B"}`);
    decide(camp.id, benReg.id, "move-up", lead, "", new Date(), { addPlace: true });

    const { page, context, problems } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id });
    await page.goto(location);
    const transfer = page.getByRole("region", { name: "Überweisung", exact: true });
    expect((await transfer.textContent())!.replace(/\s+/g, " ")).toContain("Bitte überweise den noch offenen Betrag in 2 Überweisungen");
    const first = page.getByRole("region", { name: /^1\. Überweisung: 200,00\s€$/ });
    const second = page.getByRole("region", { name: /^2\. Überweisung: 180,00\s€$/ });
    expect((await first.textContent())!.replace(/\s+/g, " ")).toContain("Für Anna Muster (mit der Anmeldung angefragt)");
    expect((await second.textContent())!.replace(/\s+/g, " ")).toContain("Für Ben Muster (einzeln per E-Mail angefragt)");
    await expect.poll(() => first.getByRole("img", { name: /GiroCode der 1\. Überweisung/ }).count()).toBe(1);
    expect(await second.getByRole("img", { name: /GiroCode der 2\. Überweisung/ }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/bestaetigung-zwei-${javaScriptEnabled}.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("names the debits as the mails announced them when a child moved up, for a family paying by SEPA mandate", async () => {
    const { lead, parent, camp, benReg, location } = await twoChildren(`Zeltfreizeit ${javaScriptEnabled ? "A" : "B"}`, "sepa");
    decide(camp.id, benReg.id, "move-up", lead, "", new Date(), { addPlace: true });

    const { page, context, problems } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id });
    await page.goto(location);
    const main = (await page.getByRole("main").textContent())!.replace(/\s+/g, " ");
    expect(main).toContain("Der noch offene Betrag wird per SEPA-Lastschrift eingezogen, in den Beträgen, die wir dir per E-Mail angekündigt haben:");
    expect(main).not.toContain("einmal per SEPA-Lastschrift");
    const debits = page.locator("ul.debit-parts li");
    expect((await debits.allTextContents()).map((t) => t.replace(/\s+/g, " "))).toEqual([
      "200,00 € für Anna Muster (mit der Anmeldung angekündigt)",
      "180,00 € für Ben Muster (einzeln per E-Mail angekündigt)",
    ]);
    expect(await page.getByRole("img", { name: /GiroCode/ }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/bestaetigung-sepa-${javaScriptEnabled}.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("asks only for what is still open once a child is paid for", async () => {
    const { lead, parent, camp, annaReg, benReg, location } = await twoChildren(`Segelfreizeit ${javaScriptEnabled ? "A" : "B"}`);
    decide(camp.id, annaReg.id, "confirm-payment", lead);
    decide(camp.id, benReg.id, "move-up", lead, "", new Date(), { addPlace: true });

    const { page, context, problems } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id });
    await page.goto(location);
    const main = (await page.getByRole("main").textContent())!.replace(/\s+/g, " ");
    expect(main).toMatch(/Gesamtbetrag: 380,00 €/);
    expect(main).toMatch(/Davon bezahlt: 200,00 €\. Noch offen: 180,00 €/);
    const transfer = page.getByRole("region", { name: "Überweisung", exact: true });
    expect((await transfer.textContent())!.replace(/\s+/g, " ")).toContain("Bitte überweise den noch offenen Betrag:");
    expect((await transfer.locator("dd").nth(4).textContent())!.replace(/\s+/g, " ")).toBe("180,00 €");
    expect(await page.getByRole("img", { name: /GiroCode/ }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/bestaetigung-offen-${javaScriptEnabled}.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
