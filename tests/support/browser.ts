// Real Chromium (Debian's /usr/bin/chromium) through playwright-core.
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { browserSessionCookie } from "./fixtures";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The browser of a test file: launched before its tests, closed after them. */
export function fileBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("fileBrowser: the browser starts in beforeAll");
    return browser;
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** The two ways every flow is tested: with JavaScript and without. */
export const JS_MODES = [
  { name: "mit JavaScript", javaScriptEnabled: true },
  { name: "ohne JavaScript", javaScriptEnabled: false },
] as const;

export type Tab = { context: BrowserContext; page: Page; problems: string[] };

/** A fresh browser context and page that records every console error and page error. */
export async function openTab(browser: Browser, options: { javaScriptEnabled: boolean; baseURL: string }): Promise<Tab> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled, baseURL: options.baseURL, locale: "de-DE" });
  // A step that waits longer than this fails with its own name and locator, before the test's
  // own time runs out and the log says only that the test timed out.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    // A form answering 4xx (refused input, wrong password) is expected; the browser logs it as a
    // failed resource. Anything else, and every 5xx, is a problem.
    if (message.type() !== "error") return;
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
    problems.push(`console.error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/** With JavaScript: waits until React has taken the page over (root.tsx marks <html>). */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** A tab of a signed-in person on a phone: 360 pixels wide (740 high unless told), as openTab. */
export async function phoneTab(browser: Browser, options: { javaScriptEnabled: boolean; baseURL: string; userId: number; height?: number }): Promise<Tab> {
  const tab = await openTab(browser, options);
  await tab.page.setViewportSize({ width: 360, height: options.height ?? 740 });
  await tab.context.addCookies([await browserSessionCookie(options.userId, options.baseURL)]);
  return tab;
}

/** On the enrolment form: adds a child's box ('Weitere*n Teilnehmer*in hinzufügen') and waits for box `n`. */
export async function addBox(page: Page, n: number) {
  await page.getByRole("button", { name: "Weitere*n Teilnehmer*in hinzufügen" }).click();
  const box = page.getByRole("group", { name: `Teilnehmer*in ${n}` });
  await box.waitFor();
  return box;
}
