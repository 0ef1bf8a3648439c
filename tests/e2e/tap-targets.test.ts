// On a phone every control a finger aims at is at least 44 px tall (WCAG 2.5.5): buttons, links
// styled as buttons, fields, selects and the lists' tabs, with JavaScript and without, on the
// pages a parent and a lead person use most.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { createEvent } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { createRegistration } from "../support/registrations";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

/** The visible controls lower than 44 px (file inputs are hidden behind their labelled button). */
function smallControls(page: Page) {
  return page.$$eval(
    "button, a.button, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]), .sub-nav a, .tabs a",
    (elements) =>
      elements
        .filter((e) => (e as HTMLElement).offsetParent !== null && e.getBoundingClientRect().height < 43.5)
        .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent || e.getAttribute("name") || "").trim().slice(0, 30)}" ${Math.round(e.getBoundingClientRect().height)} px`),
  );
}

describe.each(JS_MODES)("tap targets at 360 px, $name", ({ javaScriptEnabled }) => {
  it("are at least 44 px tall on the enrolment form, the participant list, a registration and the admin panel", async () => {
    const lead = await createUser({ role: "admin" });
    const parent = await createUser();
    const camp = createEvent({ title: `Zeltlager ${Date.now()}`, ownerIds: [lead.id], capacity: 10 });
    const registration = createRegistration(camp.id, parent.id);

    const asParent = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await asParent.page.setViewportSize({ width: 360, height: 740 });
    await asParent.context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    for (const url of ["/", `/freizeit/${camp.id}`, `/enroll/${camp.id}`, "/account"]) {
      await asParent.page.goto(url);
      expect(await smallControls(asParent.page), url).toEqual([]);
    }
    await asParent.context.close();

    const asLead = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await asLead.page.setViewportSize({ width: 360, height: 740 });
    await asLead.context.addCookies([await browserSessionCookie(lead.id, baseUrl)]);
    for (const url of [`/freizeit/participants/${camp.id}`, `/freizeit/participants/participant-details/${registration.id}`, `/freizeit/helper/${camp.id}`, "/gott", "/gott?tab=benutzer"]) {
      await asLead.page.goto(url);
      expect(await smallControls(asLead.page), url).toEqual([]);
    }
    await asLead.context.close();
  });
});
