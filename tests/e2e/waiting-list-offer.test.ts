// A place frees up; the parent of the first waiting child takes it from the mail's link, on a
// 360 px phone, with JavaScript and without.
import { describe, expect, inject, it } from "vitest";
import { decide } from "~/models/registration-decision.server";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { createEvent } from "../support/events";
import { waitForMail } from "../support/mail";
import { createRegistration, registration } from "../support/registrations";

const { baseUrl, mailDir } = inject("e2e")!;
const browser = fileBrowser();


describe.each(JS_MODES)("waiting list $name", ({ javaScriptEnabled }) => {
  it("the first in line takes the freed place from the mail's link; the link works once", async () => {
    const lead = await createUser({ firstName: "Lea" });
    const holder = await createUser();
    const parent = await createUser({ email: `warte-${Date.now()}-${javaScriptEnabled}@example.org`, firstName: "Wanda" });
    const event = createEvent({ ownerIds: [lead.id], capacity: 1, title: `Kanufreizeit ${javaScriptEnabled ? "A" : "B"}`, priceCents: 12000 });
    const place = createRegistration(event.id, holder.id, { firstName: "Hanna" });
    const waiting = createRegistration(event.id, parent.id, { firstName: "Wiebke", waiting: 1 });

    decide(event.id, place.id, "reject", { id: lead.id, email: lead.email, firstName: lead.firstName, lastName: lead.lastName, role: "user" }, "Doppelt angemeldet");
    const mail = await waitForMail(mailDir, parent.email, /^Ein Platz ist frei geworden: Wiebke Muster/);
    // The decision was made in this test process, whose APP_URL differs from the server's: take the path.
    const link = /\/platzangebot\/\d+\/annehmen/.exec(mail.text)?.[0];
    expect(link).toBe(`/platzangebot/${waiting.id}/annehmen`);
    expect(mail.text).toContain(`/platzangebot/${waiting.id}/freigeben`);

    const { page, context, problems } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    // Giving the place away says it is for good, before anything is sent.
    await page.goto(`/platzangebot/${waiting.id}/freigeben`);
    expect(await page.getByRole("main").textContent()).toContain("Die Anmeldung ist damit storniert und dein Kind auch nicht mehr auf der Warteliste; das lässt sich nicht rückgängig machen.");
    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Platz annehmen");
    expect(await page.getByRole("main").textContent()).toContain("Wiebke Muster");
    // What the place costs, before it is taken (parents' review: the page did not say).
    expect((await page.getByRole("main").textContent())!.replace(/\s+/g, " ")).toContain(
      "Der Platz kostet 120,00 €. Nach dem Annehmen bekommst du eine E-Mail mit Konto, Betrag, Verwendungszweck und GiroCode für die Überweisung.",
    );
    expect(registration(waiting.id).waitingListPosition).toBe(1); // opening the link changes nothing
    await page.getByRole("button", { name: "Platz annehmen" }).click();
    await page.waitForURL(`**/freizeit/${event.id}`);
    await page.getByRole("status").getByText("Platz angenommen", { exact: false }).first().waitFor(); // with JavaScript the address changes first
    expect(await page.getByRole("status").first().textContent()).toContain("Platz angenommen");
    // Said for every way of paying (a SEPA payer has nothing to transfer).
    expect(await page.getByRole("status").first().textContent()).toContain("Der Platz gehört jetzt euch. Wir haben dir eine E-Mail geschickt; falls etwas zu zahlen ist, steht darin, wie. Die Leitung prüft die Anmeldung noch; ihre Entscheidung bekommst du per E-Mail.");
    expect(await page.getByRole("main").textContent()).toContain("Anmeldung eingegangen – Bestätigung ausstehend");
    expect(registration(waiting.id)).toMatchObject({ waitingListPosition: null, amountCents: 12000 });
    await waitForMail(mailDir, parent.email, /^Platz angenommen: Wiebke Muster/);

    // The same link again: answered already, no button, and what became of it (it said only
    // "answered or no longer valid").
    await page.goto(link!);
    expect(await page.getByRole("main").textContent()).toContain("Wiebke Muster hat den Platz schon. Die Leitung prüft die Anmeldung noch; ihre Entscheidung bekommst du per E-Mail.");
    expect(await page.getByRole("button", { name: "Platz annehmen" }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(problems).toEqual([]);
    await context.close();
  });
});
