// The pages of issue 11 for a screen-reader and a phone user: one h1, headings in order, a label
// for every field, nothing wider than a 320-pixel screen (with and without JavaScript).
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { createEvent, daysFromToday } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { addHelperEntry, createRegistration } from "../support/helper-camp";
import { assignToGroup, createGroup } from "~/models/group.server";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

describe.each(JS_MODES)("issue 11 pages $name", ({ javaScriptEnabled }) => {
  it("one h1, headings in order, labelled fields, 320 pixels", async () => {
    const admin = await createUser({ role: "admin" });
    const helper = await createUser({ firstName: "Hanna", lastName: "Helfer" });
    const pending = await createUser({ firstName: "Paula", lastName: "Sehrlangernachnamefürdentest" });
    const declined = await createUser();
    const parent = await createUser();
    const event = createEvent({ title: "Barrierefrei-Sommerlager mit langem Titel", dateFrom: daysFromToday(40), dateTo: daysFromToday(47) });
    addHelperEntry(event.id, helper.id, "accepted");
    addHelperEntry(event.id, pending.id, "pending");
    addHelperEntry(event.id, declined.id, "declined");
    const group = createGroup(event.id, "Füchse");
    const child = createRegistration(event.id, parent.id, { specialNeeds: "Allergie gegen Erdnüsse, Medikament morgens und abends", mobilePhone: "", phone: "" });
    if (group.ok) {
      assignToGroup(event.id, { registrationId: child.id }, group.groupId, admin);
      assignToGroup(event.id, { helperUserId: helper.id }, group.groupId, admin);
    }
    const pages = [
      `/freizeit/helper/${event.id}`,
      `/freizeit/helper/${event.id}?gruppeLoeschen=${group.ok ? group.groupId : 0}`,
      `/freizeit/helper/${event.id}/helper-details/${helper.id}`,
      `/freizeit/participants/${event.id}/notfall`,
      `/account/${helper.id}`,
    ];
    for (const path of pages) {
      const { page, context, problems } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
      await page.setViewportSize({ width: 320, height: 640 });
      await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const report = await page.evaluate(() => {
        const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => Number(h.tagName[1]));
        const unlabelled = [...document.querySelectorAll("input, select, textarea")]
          .filter((el) => (el as HTMLInputElement).type !== "hidden")
          .filter((el) => {
            const labels = (el as HTMLInputElement).labels;
            return !(labels && labels.length > 0) && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby");
          })
          .map((el) => (el as HTMLInputElement).name);
        return {
          h1: levels.filter((l) => l === 1).length,
          first: levels[0],
          skipped: levels.filter((level, i) => i > 0 && level > levels[i - 1] + 1),
          unlabelled,
          width: document.documentElement.scrollWidth,
        };
      });
      expect(report, path).toEqual({ h1: 1, first: 1, skipped: [], unlabelled: [], width: 320 });
      expect(problems, path).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
