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
    await page.getByRole("heading", { level: 1 }).waitFor();
    // The region stays (for screen readers) and is empty.
    expect((await page.getByRole("status", { includeHidden: true }).first().textContent())?.trim()).toBe("");
    expect(problems).toEqual([]);
    await context.close();
  });
});
