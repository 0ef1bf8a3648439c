// The leaders' lists on a 360 px phone, with JavaScript and without (fresh-eyes review of issues
// 10 and 11): the participant list and the helper list show each row as a card (no action off
// screen, no word cut, tap targets of 44 px); a lead person sorts two children into groups on the
// participant list and finds them on the group's camp sheet, linked from the participant list;
// the camp sheet on screen is one card per child; a waiting row names its place once and offers
// 'Nachrücken' first.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { eq } from "drizzle-orm";
import { events } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, hydrated, JS_MODES, phoneTab } from "../support/browser";
import { createEvent, daysFromToday } from "../support/events";
import { createUser } from "../support/fixtures";
import { addGroup, addHelper, quickUser, register } from "../support/lists-fixtures";

const { baseUrl } = inject("e2e")!;
const WIDTH = 360;
const browser = fileBrowser();

let families = 0;
function child(firstName: string, lastName: string) {
  return { child: { firstName, lastName }, userId: quickUser({ email: `phone-${Date.now()}-${++families}@example.org` }).id };
}

/** Fully on the screen (no part left or right of the 360 px) and at least 44 px high and wide. */
async function reachable(locator: Locator) {
  const box = (await locator.boundingBox())!;
  expect(box, "has a box").not.toBeNull();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeGreaterThanOrEqual(44);
}

/**
 * No cell of the table is cut: every cell lies on the screen, its text fits its box, and no word
 * in it is broken across two lines ('Bezah-lung', 'Anneh-men'): each word's range has one box.
 */
async function cellsFit(page: Page, selector: string) {
  const cut = await page.locator(selector).evaluateAll((cells, width) => {
    const problems: string[] = [];
    for (const cell of cells) {
      const box = cell.getBoundingClientRect();
      if (box.left < 0 || box.right > width || cell.scrollWidth > cell.clientWidth + 1) problems.push(`outside: ${cell.textContent}`);
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) problems.push(`word cut: ${match[0]}`);
        }
      }
    }
    return problems;
  }, WIDTH);
  expect(cut).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
}

/** Below 600 px each row is a card: the row a block of its own, the cells lines across it. */
async function rowsAreCards(page: Page, selector: string) {
  const displays = await page.locator(selector).evaluateAll((rows) => rows.map((row) => getComputedStyle(row).display));
  expect(displays.length).toBeGreaterThan(0);
  expect(new Set(displays)).toEqual(new Set(["block"]));
}

async function flash(page: Page, text: string) {
  await page.locator(".flash-region").getByText(text).waitFor();
}

describe.each(JS_MODES)("lists on a phone $name", ({ javaScriptEnabled }) => {
  it("participant list: cards, groups sorted on the list, the camp sheet linked and readable", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leitung" });
    const camp = createEvent({ title: `Herbstlager ${Date.now()}`, ownerIds: [lead.id], capacity: 3, dateFrom: daysFromToday(30), dateTo: daysFromToday(35) });
    register(camp.id, { status: "open", ...child("Mia", "Acker"), answers: { specialNeeds: "Erdnussallergie" } });
    register(camp.id, { status: "accepted", paid: true, ...child("Noah", "Berg") });
    register(camp.id, { status: "open", waitingListPosition: 1, ...child("Leon", "Schneider") });
    addGroup(camp.id, "Füchse");
    addGroup(camp.id, "Eulen");
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });
    const listPath = `/freizeit/participants/${camp.id}`;
    await page.goto(listPath);
    await page.getByRole("heading", { level: 1, name: `Teilnehmer*innen-Liste ${camp.title}` }).waitFor();
    if (javaScriptEnabled) await hydrated(page); // the group fields become search fields

    // 1. Each row a card: the actions on screen, nothing cut, 44 px targets.
    const row = (name: string) => page.getByRole("table").getByRole("row").filter({ hasText: name });
    await rowsAreCards(page, ".review-table tbody tr");
    await cellsFit(page, ".review-table tbody th, .review-table tbody td");
    await reachable(row("Acker").getByRole("link", { name: "Annehmen: Mia Acker" }));
    await reachable(row("Acker").getByRole("link", { name: "Ablehnen: Mia Acker" }));
    await reachable(row("Berg").getByRole("link", { name: "Anmeldung stornieren: Noah Berg" }));
    await reachable(row("Acker").locator("label.pick"));
    await row("Acker").locator("label.pick").click();
    expect(await row("Acker").getByRole("checkbox", { name: "Mia Acker auswählen" }).isChecked()).toBe(true);

    // 7. The waiting row: its place once, 'Nachrücken' first, 'Ablehnen' not the loud button.
    const waiting = page.getByRole("region", { name: "Warteliste" }).getByRole("listitem").filter({ hasText: "Schneider" });
    expect((await waiting.textContent())!.match(/Platz 1/g)).toHaveLength(1);
    const actions = waiting.locator(".decisions").getByRole("link");
    expect(await actions.allTextContents()).toEqual(["Nachrücken", "Ablehnen"]);
    expect(await actions.nth(1).getAttribute("class")).not.toContain("danger");
    await reachable(actions.nth(0));

    // 3. Sort Mia into 'Füchse' and Noah into 'Eulen' right on the participant list.
    for (const [name, label, group] of [["Acker", "Mia Acker", "Füchse"], ["Berg", "Noah Berg", "Eulen"]] as const) {
      const field = row(name).getByLabel(`Gruppe von ${label}`);
      if (javaScriptEnabled) {
        await field.fill(group.toLowerCase());
        await field.press("Enter");
      } else {
        await field.selectOption({ label: group });
        await row(name).getByRole("button", { name: "Speichern" }).click();
      }
      await flash(page, `Die Zuordnung von ${label} zur Gruppe "${group}" wurde gespeichert.`);
      await reachable(row(name).getByLabel(`Gruppe von ${label}`));
    }
    await page.reload();
    // With JavaScript the select becomes a search field once React has the page: read it then.
    if (javaScriptEnabled) await hydrated(page);
    if (javaScriptEnabled) expect(await row("Acker").getByLabel("Gruppe von Mia Acker").inputValue()).toBe("Füchse");
    else expect(await row("Acker").getByLabel("Gruppe von Mia Acker").locator("option:checked").textContent()).toBe("Füchse");

    // Sorted in while still open; the camp sheet lists the accepted children.
    await row("Acker").getByRole("link", { name: "Annehmen: Mia Acker" }).click();
    await page.getByRole("dialog", { name: "Anmeldung annehmen" }).getByRole("button", { name: "Annehmen", exact: true }).click();
    await row("Acker").getByText("Bestätigt").waitFor();

    // 6. The camp sheet from the participant list; 5. one card per child on the phone screen.
    await page.getByRole("link", { name: "Lagerblätter drucken" }).click();
    await page.getByRole("heading", { level: 1, name: `Lagerblätter ${camp.title}` }).waitFor();
    const foxes = page.getByRole("region", { name: "Gruppe Füchse" });
    await foxes.getByText("Acker, Mia").waitFor();
    expect(await foxes.getByText("Berg, Noah").count()).toBe(0);
    await page.getByRole("region", { name: "Gruppe Eulen" }).getByText("Berg, Noah").waitFor();
    await rowsAreCards(page, ".camp-sheet-table tbody tr");
    await cellsFit(page, ".camp-sheet-table tbody th, .camp-sheet-table tbody td");
    expect(await foxes.getByText("Erdnussallergie").isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  // Leaders' review: every freed place goes to the first in line at once, so 'Nachrücken' found no
  // free place, and "Plätze ändern" only offered the new place to the first in line.
  it("'Nachrücken' into a full camp says so in its step and moves the chosen child up with one more place", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leitung" });
    const camp = createEvent({ title: `Volles Lager ${Date.now()}`, ownerIds: [lead.id], capacity: 1, dateFrom: daysFromToday(30), dateTo: daysFromToday(35) });
    register(camp.id, { status: "accepted", ...child("Noah", "Berg") });
    register(camp.id, { status: "open", waitingListPosition: 1, ...child("Mia", "Vorne") });
    register(camp.id, { status: "open", waitingListPosition: 2, ...child("Leon", "Schneider") });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });
    await page.goto(`/freizeit/participants/${camp.id}`);
    if (javaScriptEnabled) await hydrated(page);
    const waitingList = page.getByRole("region", { name: "Warteliste" });
    const waiting = waitingList.getByRole("listitem").filter({ hasText: "Schneider" });
    await waiting.getByRole("link", { name: /^Nachrücken/ }).click();
    const step = page.getByRole("dialog", { name: "Nachrücken" });
    await step.waitFor();
    expect(await step.textContent()).toContain(
      "Der einzige Platz ist vergeben. Leon Schneider rückt trotzdem von der Warteliste nach und bekommt einen zusätzlichen Platz: Die Veranstaltung hat dann 2 Plätze.",
    );
    await step.getByRole("link", { name: "Abbrechen" }).click();
    await step.waitFor({ state: "detached" });
    expect(db.select({ capacity: events.capacity }).from(events).where(eq(events.id, camp.id)).get()).toEqual({ capacity: 1 });
    await waiting.getByRole("link", { name: /^Nachrücken/ }).click();
    await reachable(page.getByRole("dialog", { name: "Nachrücken" }).getByRole("button", { name: "Nachrücken mit zusätzlichem Platz" }));
    await page.getByRole("dialog", { name: "Nachrücken" }).getByRole("button", { name: "Nachrücken mit zusätzlichem Platz" }).click();
    await page.getByText("Leon Schneider: Die Anmeldung ist von der Warteliste nachgerückt. Die Veranstaltung hat jetzt 2 Plätze.").waitFor();
    // Mia stays first in line, with no offer: nobody else moved.
    expect(await waitingList.getByRole("listitem").allTextContents()).toEqual(["Platz 1 Vorne, Mia NachrückenAblehnen"]);
    expect(db.select({ capacity: events.capacity }).from(events).where(eq(events.id, camp.id)).get()).toEqual({ capacity: 2 });
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("helper list: each helper a card, the group field wide enough, actions on screen", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leitung" });
    const camp = createEvent({ title: `Helferlager ${Date.now()}`, ownerIds: [lead.id], dateFrom: daysFromToday(30), dateTo: daysFromToday(35) });
    const anna = await createUser({ firstName: "Anna", lastName: "Angenommen" });
    const paul = await createUser({ firstName: "Paul", lastName: "Wartend" });
    addHelper(camp.id, anna.id, "accepted");
    addHelper(camp.id, paul.id, "pending");
    addGroup(camp.id, "Eulen", { helperIds: [anna.id] });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });
    await page.goto(`/freizeit/helper/${camp.id}`);
    const row = (name: string) => page.getByRole("table").getByRole("row").filter({ hasText: name });
    await row("Anna").waitFor();
    await rowsAreCards(page, ".helper-table tbody tr");
    await cellsFit(page, ".helper-table tbody th, .helper-table tbody td");
    const field = row("Anna").getByLabel("Gruppe von Anna Angenommen");
    await reachable(field);
    expect((await field.boundingBox())!.width).toBeGreaterThanOrEqual(150);
    await reachable(row("Anna").getByRole("link", { name: /^Anmeldung stornieren: Anna/ }));
    await reachable(row("Paul").getByRole("button", { name: "Annehmen" }));
    await reachable(row("Paul").getByRole("link", { name: /^Ablehnen: Paul/ }));
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
