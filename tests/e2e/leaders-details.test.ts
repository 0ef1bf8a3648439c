// The leaders' fresh-eyes review (second round), seen in a real browser with JavaScript and
// without: the registration detail gives the special needs room beside long labels at every
// width, says an offered place in the leaders' words, tells whoever comments that the parents read
// it; the camp sheet's phone numbers can be tapped to call.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES, phoneTab } from "../support/browser";
import { createEvent } from "../support/events";
import { createUser } from "../support/fixtures";
import { register } from "../support/lists-fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

const NEEDS = "Heuschnupfen (Medikament dabei), vegetarisch";

/** Width of each value beside its label in the panel named `panel`, against the list's width. */
async function valueShares(page: Page, panel: string) {
  return page.getByRole("region", { name: panel }).locator("dl.facts").evaluate((list) => {
    const width = list.getBoundingClientRect().width;
    return [...list.querySelectorAll("dd")].map((dd) => dd.getBoundingClientRect().width / width);
  });
}

describe.each(JS_MODES)("the leaders' detail pages, $name", ({ javaScriptEnabled }) => {
  it("give the special needs room at 360, 800 and 1280 px, say an offer in the leaders' words, and tell who reads a comment", async () => {
    const lead = await createUser({ role: "user" });
    const event = createEvent({ ownerIds: [lead.id], capacity: 1 });
    const placed = register(event.id, { answers: { specialNeeds: NEEDS, nameOfInsured: "Gerda Vormund", birthdateOfInsured: "1985-03-04" } });
    const offered = register(event.id, { status: "open", waitingListPosition: 1, answers: { offerExpiresAt: new Date(Date.now() + 2 * 86_400_000) } });
    const { page, context, problems } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });

    await page.goto(`/freizeit/participants/participant-details/${placed.registration.id}`);
    for (const width of [360, 800, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      // Each value has at least half the list beside its label, or the whole line below it.
      for (const share of await valueShares(page, "Angaben zur Anmeldung")) expect(share, `${width} px`).toBeGreaterThanOrEqual(0.5);
      const needs = (await page.getByText(NEEDS).boundingBox())!;
      expect(needs.height, `${width} px: the special needs on at most three lines`).toBeLessThan(80);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/anmeldung-details-${width}-${javaScriptEnabled}.png`, fullPage: true });
    }

    // Whoever writes a comment is told that the parents read it, and the hint is the field's description.
    const field = page.getByLabel("Neuer Kommentar*");
    const described = await field.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe("Die Eltern sehen jeden Kommentar in ihrem Konto, mit dem Namen der Person, die ihn geschrieben hat.");

    await page.goto(`/freizeit/participants/participant-details/${offered.registration.id}`);
    const status = page.getByRole("region", { name: "Status und Bezahlung" });
    expect(await status.getByText("Warteliste – Platz angeboten").isVisible()).toBe(true);
    expect(await status.getByText(/bitte .* annehmen/).count()).toBe(0);
    expect(await status.getByText(/^Platz angeboten bis /).isVisible()).toBe(true);

    // The camp sheet: the guardian's mobile number is a link to call it.
    await page.goto(`/freizeit/participants/${event.id}/notfall`);
    const call = page.getByRole("link", { name: "+49 171 1234567" }).first();
    expect(await call.getAttribute("href")).toBe("tel:+491711234567");
    expect(problems).toEqual([]);
    await context.close();
  });
});
