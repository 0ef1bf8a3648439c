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

describe.each(JS_MODES)("the confirmation page $name", ({ javaScriptEnabled }) => {
  it("asks only for what is still open once a child is paid for", async () => {
    const leader = await createUser({ firstName: "Lea" });
    const lead = { id: leader.id, email: leader.email, firstName: leader.firstName, lastName: leader.lastName, role: "user" as const };
    const parent = await createUser({ firstName: "Eva" });
    const camp = createEvent({ title: `Segelfreizeit ${javaScriptEnabled ? "A" : "B"}`, ownerIds: [lead.id], capacity: 1, priceCents: 20000, siblingDiscountCents: 2000 });
    const [anna, ben] = ["Anna", "Ben"].map(
      (firstName) => db.insert(participants).values({ userId: parent.id, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get(),
    );
    const fields = { submissionKey: `offen-${Date.now()}-${javaScriptEnabled}-abcdef`, referral: "", paymentMethod: "transfer", terms: "on", intent: "submit", "boxes[0].participant": String(anna.id), "boxes[1].participant": String(ben.id) };
    const enrolled = await run(enrollAction, post(`/enroll/${camp.id}`, fields, { cookie: await sessionCookieFor(parent.id), params: { eventId: String(camp.id) } }));
    const location = enrolled.headers.get("Location")!;
    const [annaReg, benReg] = db.select().from(registrations).where(eq(registrations.eventId, camp.id)).orderBy(registrations.id).all();
    decide(camp.id, annaReg.id, "confirm-payment", lead);
    decide(camp.id, benReg.id, "move-up", lead, "", new Date(), { addPlace: true });

    const { page, context, problems } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id });
    await page.goto(location);
    const main = (await page.getByRole("main").textContent())!.replace(/\s+/g, " ");
    expect(main).toMatch(/Gesamtbetrag: 380,00 €/);
    expect(main).toMatch(/Davon bezahlt: 200,00 €\. Noch offen: 180,00 €/);
    const transfer = page.getByRole("region", { name: "Überweisung" });
    expect((await transfer.textContent())!.replace(/\s+/g, " ")).toContain("Bitte überweise den noch offenen Betrag:");
    expect((await transfer.locator("dd").nth(4).textContent())!.replace(/\s+/g, " ")).toBe("180,00 €");
    expect(await page.getByRole("img", { name: /GiroCode/ }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/bestaetigung-offen-${javaScriptEnabled}.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
