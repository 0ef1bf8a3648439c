// axe-core (Deque's accessibility engine) over a page as a person got it: with JavaScript the
// hydrated page, without it the server's HTML. axe runs in a copy of the page's document in a
// tab of its own (the app's Content-Security-Policy allows no injected script, and a tab without
// JavaScript runs none), with the app's stylesheets, so contrast is checked too.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** WCAG 2.2 A and AA, and axe's best practices (landmarks, one main, unique names). */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

type AxeResult = { violations: { id: string; help: string; nodes: { target: string[] }[] }[] };

/** One tab that checks copies of pages, one after another. */
export async function axeChecker(browser: Browser, viewport = { width: 360, height: 740 }) {
  const context = await browser.newContext({ bypassCSP: true, viewport, locale: "de-DE" });
  context.setDefaultTimeout(20_000); // as openTab: a hung step names itself
  const copy = await context.newPage();
  let current = { url: "", html: "" };
  await copy.route("**/*", (route) =>
    route.request().url() === current.url ? route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: current.html }) : route.continue(),
  );
  return {
    /** What axe finds wrong on the page as shown now, one line per rule: empty when nothing. */
    async violations(page: Page): Promise<string[]> {
      current = { url: page.url(), html: (await page.content()).replace(/<script\b[\s\S]*?<\/script>/g, "") };
      await copy.goto(current.url);
      await copy.evaluate(AXE_SOURCE);
      const result = await copy.evaluate(
        (tags) => (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }).axe.run(document, { runOnly: { type: "tag", values: tags } }),
        TAGS,
      );
      return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")})`);
    },
    close: () => context.close(),
  };
}
