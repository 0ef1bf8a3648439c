import { describe, expect, inject, it } from "vitest";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();


describe.each(JS_MODES)("the app shell $name", ({ javaScriptEnabled }) => {
  it("shows a visitor Login and SignUp, the footer links, and no account buttons", async () => {
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.goto("/");
    expect(await page.getAttribute("html", "lang")).toBe("de");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Lagerfeuer – zur Startseite" }).getAttribute("href")).resolves.toBe("/");
    expect(await header.getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "SignUp" }).isVisible()).toBe(true);
    expect(await header.getByRole("button", { name: "Logout" }).count()).toBe(0);
    expect(await header.getByRole("link", { name: "Account" }).count()).toBe(0);
    expect(await header.getByRole("link", { name: "Admin Panel" }).count()).toBe(0);
    const footer = page.getByRole("contentinfo");
    for (const label of ["Kontakt", "Anfahrt", "FAQ", "Downloads", "Impressum", "Datenschutz"]) {
      expect(await footer.getByRole("link", { name: label }).count()).toBe(1);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a signed-in admin Logout, Account and Admin Panel, and logging out ends the session", async () => {
    const admin = await createUser({ role: "admin" });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
    await page.goto("/");
    const header = page.getByRole("banner");
    expect(await header.getByRole("button", { name: "Logout" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Account" }).getAttribute("href")).toBe("/account");
    expect(await header.getByRole("link", { name: "Admin Panel" }).getAttribute("href")).toBe("/gott");
    expect(await header.getByRole("link", { name: "Login" }).count()).toBe(0);

    await header.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.goto("/");
    expect(await page.getByRole("banner").getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    expect(await page.getByRole("banner").getByRole("button", { name: "Logout" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a signed-in user Logout and Account but no Admin Panel", async () => {
    const user = await createUser();
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(user.id, baseUrl)]);
    await page.goto("/");
    const header = page.getByRole("banner");
    expect(await header.getByRole("button", { name: "Logout" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Account" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Admin Panel" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("answers an unknown address with a German 404 page", async () => {
    const { page, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    const response = await page.goto("/gibt-es-nicht");
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Seite nicht gefunden");
    expect(await page.getByRole("link", { name: "Zur Startseite", exact: true }).getAttribute("href")).toBe("/");
    await context.close();
  });

  it("shows a signed-in admin their own buttons on the 404 page, not Login and SignUp", async () => {
    const admin = await createUser({ role: "admin" });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
    const response = await page.goto("/gibt-es-nicht/auch-nicht");
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Seite nicht gefunden");
    const header = page.getByRole("banner");
    expect(await header.getByRole("button", { name: "Logout" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Admin Panel" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Login" }).count()).toBe(0);
    expect(await header.getByRole("link", { name: "SignUp" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the app shell with JavaScript on a slow connection", () => {
  it("says that a form is on its way while its answer takes long, and nothing once it is there", async () => {
    const user = await createUser({ firstName: "Paula" });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled: true, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(user.id, baseUrl)]);
    await page.goto("/account");
    await page.locator("html[data-hydrated]").waitFor();
    // The posts take 1.5 s, as on a weak connection; the browser's own indicator does not run for
    // a hydrated form's fetch, so a parent saw nothing happen and tapped again.
    await page.route("**/account**", async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByLabel("Vorname").fill("Paulina");
    await page.getByRole("button", { name: "Name speichern" }).click();
    const notice = page.getByRole("status").filter({ hasText: "Wird gesendet …" });
    await notice.waitFor();
    await page.getByText("Der Name wurde geändert.").waitFor();
    await notice.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await context.close();
  });
});
