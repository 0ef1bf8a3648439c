// Basics a screen-reader user and a phone user rely on, page by page: one h1, headings in
// order, a label for every field, nothing wider than a 320-pixel screen.
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, openTab } from "../support/browser";
import { createEvent } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();


async function audit(path: string, cookieFor: number | undefined, javaScriptEnabled: boolean) {
  const { page, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
  await page.setViewportSize({ width: 320, height: 640 });
  if (cookieFor) await context.addCookies([await browserSessionCookie(cookieFor, baseUrl)]);
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  const report = await page.evaluate(() => {
    const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => Number(h.tagName[1]));
    const skipped = levels.filter((level, i) => i > 0 && level > levels[i - 1] + 1);
    const unlabelled = [...document.querySelectorAll("input, select, textarea")]
      .filter((el) => (el as HTMLInputElement).type !== "hidden")
      .filter((el) => {
        const labels = (el as HTMLInputElement).labels;
        return !(labels && labels.length > 0) && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby");
      })
      .map((el) => (el as HTMLInputElement).name);
    return { h1: levels.filter((l) => l === 1).length, first: levels[0], skipped, unlabelled, width: document.documentElement.scrollWidth, lang: document.documentElement.lang };
  });
  await context.close();
  return report;
}

describe("every page", () => {
  it("has one h1, headings in order, labelled fields and fits 320 pixels", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const camp = createEvent({ title: "Barrierefrei-Lager", permitsRequired: true, tshirtSizeRequired: true });
    const pages: [string, number | undefined][] = [
      ["/", undefined],
      ["/", parent.id],
      ["/login", undefined],
      ["/signup", undefined],
      ["/forgot", undefined],
      ["/konto-bestaetigen", undefined],
      [`/freizeit/${camp.id}`, undefined],
      [`/freizeit/${camp.id}`, admin.id],
      [`/enroll/${camp.id}`, parent.id],
      ["/account", parent.id],
      ["/account?tab=teilnehmer", parent.id],
      [`/account/${parent.id}`, admin.id],
      ["/freizeit/create", admin.id],
      [`/freizeit/edit/${camp.id}`, admin.id],
      [`/freizeit/participants/${camp.id}`, admin.id],
      [`/freizeit/helper/${camp.id}`, admin.id],
      [`/freizeit/sendEmails/${camp.id}`, admin.id],
      ["/gott", admin.id],
    ];
    // With JavaScript and without: a page without it has other controls (native file inputs).
    for (const javaScriptEnabled of [true, false]) {
      for (const [path, user] of pages) {
        const report = await audit(path, user, javaScriptEnabled);
        expect({ path, javaScriptEnabled, ...report }).toEqual({ path, javaScriptEnabled, h1: 1, first: 1, skipped: [], unlabelled: [], width: 320, lang: "de" });
      }
    }
  }, 120_000); // some 36 pages in two sizes: room for a busy machine
});

describe("a phone's large text", () => {
  it("keeps the parents' pages within 320 pixels at 200 % text size, long words included", async () => {
    // Parents' review: with the text at 200 % (a phone's font scaling) most pages scrolled
    // sideways at 320 px (tile, field-row and fact grids with fixed minimum widths), and a long
    // word or link in a description widened the event page at any text size.
    const parent = await createUser();
    const camp = createEvent({
      title: "Großes-Sommer-Zeltlager",
      description: "Bitte die Teilnahmevoraussetzungsbescheinigungen mitbringen: https://www.jugendverband-beispiel.de/downloads/sommerlager/packliste-und-formulare",
      permitsRequired: true,
      tshirtSizeRequired: true,
      priceCents: 18900,
    });
    const pages: [string, number | undefined][] = [
      ["/", undefined],
      ["/", parent.id],
      [`/freizeit/${camp.id}`, undefined],
      [`/enroll/${camp.id}`, parent.id],
      ["/account", parent.id],
      ["/account?tab=teilnehmer", parent.id],
      ["/signup", undefined],
      ["/login", undefined],
    ];
    const measured = [];
    for (const [path, user] of pages) {
      const { page, context } = await openTab(browser(), { javaScriptEnabled: false, baseURL: baseUrl });
      await page.setViewportSize({ width: 320, height: 640 });
      if (user) await context.addCookies([await browserSessionCookie(user, baseUrl)]);
      await page.goto(path);
      const widths = await page.evaluate(() => {
        // The footer's longest label, shown once the terms of participation are uploaded (the full
        // run has them, this test's pages may not).
        const footerItem = document.querySelector(".site-footer li");
        const longest = footerItem?.cloneNode(true) as HTMLElement | undefined;
        if (longest) {
          longest.querySelector("a")!.textContent = "Teilnahmebedingungen";
          footerItem!.parentElement!.append(longest);
        }
        const normal = document.documentElement.scrollWidth;
        document.documentElement.style.fontSize = "200%";
        return { normal, large: document.documentElement.scrollWidth };
      });
      measured.push({ path, ...widths });
      await context.close();
    }
    expect(measured).toEqual(pages.map(([path]) => ({ path, normal: 320, large: 320 })));
  }, 60_000);
});

describe("error messages", () => {
  it("are linked to their fields after a refused submit", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const camp = createEvent({ title: "Fehlerlager", permitsRequired: true, tshirtSizeRequired: true, swimBadgeRequired: true });
    const forms: [string, number | undefined, string][] = [
      ["/signup", undefined, "Account erstellen"],
      ["/konto-bestaetigen", undefined, "Neuen Link anfordern"],
      [`/enroll/${camp.id}`, parent.id, "Verbindlich Anmelden"],
      ["/freizeit/create", admin.id, "Veranstalltung veröffentlichen"],
      ["/account?tab=teilnehmer", parent.id, "Kind anlegen"],
    ];
    for (const [path, user, button] of forms) {
      const { page, context } = await openTab(browser(), { javaScriptEnabled: false, baseURL: baseUrl });
      if (user) await context.addCookies([await browserSessionCookie(user, baseUrl)]);
      await page.goto(path);
      if (path === `/enroll/${camp.id}`) {
        await page.getByLabel("SEPA-Lastschriftmandat", { exact: true }).check();
        // A required swim badge offers no 'Keines' that the server then refuses (parents' review).
        expect(await page.locator("select[name$='swimBadge'] option").allTextContents()).toEqual(["Bitte wählen", "Seepferdchen", "Bronze", "Silber", "Gold"]);
      }
      await page.getByRole("button", { name: button }).click();
      await page.locator(".field-errors").first().waitFor();
      const report = await page.evaluate(() => {
        const lists = [...document.querySelectorAll("ul.field-errors")];
        const described = new Set(
          [...document.querySelectorAll("[aria-describedby]")].flatMap((el) => (el.getAttribute("aria-describedby") ?? "").split(/\s+/)),
        );
        return {
          errors: lists.length,
          unlinked: lists.filter((ul) => !ul.id || !described.has(ul.id)).map((ul) => ul.textContent),
          invalidWithoutDescription: [...document.querySelectorAll("[aria-invalid='true']")]
            .filter((el) => !(el.getAttribute("aria-describedby") ?? "").split(/\s+/).some((id) => id && document.getElementById(id)))
            .map((el) => el.getAttribute("name")),
        };
      });
      expect(report.errors, path).toBeGreaterThan(0);
      if (path === "/signup") {
        // The answer opens at a list of what is wrong, each linking to its field (parents' review:
        // only the address was named, focus stayed on the page).
        const summary = await page.evaluate(() => ({
          focused: document.activeElement?.getAttribute("role") ?? document.activeElement?.tagName,
          links: [...document.querySelectorAll("[role=alert] a[href^='#']")].map((a) => document.querySelector(a.getAttribute("href")!)?.getAttribute("name")),
        }));
        expect(summary).toEqual({ focused: "alert", links: ["firstName", "lastName", "email", "password", "passwordRepeat"] });
        expect(await page.locator("[name=passwordRepeat] ~ .field-errors, #signup-passwordRepeat-error").first().textContent()).not.toContain("stimmt nicht überein");
      }
      expect({ path, unlinked: report.unlinked, invalid: report.invalidWithoutDescription }).toEqual({ path, unlinked: [], invalid: [] });
      await context.close();
    }
  });
});
