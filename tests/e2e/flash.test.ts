// A flash message belongs to the page it arrived with: with JavaScript, following a link
// afterwards does not carry it along (the root's data is not fetched again on a link).
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { createEvent } from "../support/events";
import { createRegistration } from "../support/registrations";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

describe.each(JS_MODES)("flash messages $name", ({ javaScriptEnabled }) => {
  it("show once, on the page they came with", async () => {
    const lead = await createUser();
    const parent = await createUser();
    const event = createEvent({ ownerIds: [lead.id], title: `Flashlager ${javaScriptEnabled}` });
    createRegistration(event.id, parent.id, { firstName: "Fenja" });
    const { page, context, problems } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(lead.id, baseUrl)]);
    await page.goto(`/freizeit/participants/${event.id}`);
    await page.getByRole("link", { name: "Annehmen: Fenja Muster" }).click();
    await page.getByRole("dialog", { name: "Anmeldung annehmen" }).getByRole("button", { name: "Annehmen", exact: true }).click();
    await page.getByRole("status").getByText("Anmeldung bestätigt").waitFor();
    await page.getByRole("link", { name: /Fenja/ }).first().click();
    await page.waitForURL(/participant-details/);
    await page.getByRole("heading", { level: 1, name: /Fenja/ }).waitFor();
    // The region stays (for screen readers) and is empty.
    expect((await page.getByRole("status", { includeHidden: true }).first().textContent())?.trim()).toBe("");
    expect(problems).toEqual([]);
    await context.close();
  });

  // Leaders' review: without JavaScript the message above a long list could not be closed and
  // covered a quarter of a phone's screen while the lead worked down the list.
  it("can be closed on a phone, where they stay at the top of a long list", async () => {
    const lead = await createUser();
    const event = createEvent({ ownerIds: [lead.id], title: `Schließlager ${javaScriptEnabled}` });
    const names = Array.from({ length: 14 }, (_, i) => `Kind${String(i).padStart(2, "0")}`);
    for (const firstName of names) createRegistration(event.id, (await createUser()).id, { firstName });
    const { page, context, problems } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(lead.id, baseUrl)]);
    await page.goto(`/freizeit/participants/${event.id}`);
    await page.getByRole("link", { name: "Annehmen: Kind12 Muster" }).click();
    await page.getByRole("dialog", { name: "Anmeldung annehmen" }).getByRole("button", { name: "Annehmen", exact: true }).click();
    const flash = page.getByRole("status").getByText("Anmeldung bestätigt");
    await flash.waitFor();
    await page.getByRole("status").getByRole(javaScriptEnabled ? "button" : "link", { name: "Schließen" }).click();
    await flash.waitFor({ state: "hidden" });
    // The list stays where the lead was: the row is still on the screen.
    const row = page.getByRole("link", { name: /Kind12/ }).first();
    expect(await row.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
