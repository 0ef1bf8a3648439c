// Issue 9, fresh-eyes review at 360 × 740, with JavaScript and without: the guardian preselected
// for a minor, Ja/Nein rows and 44-px tap targets, one named message per permission question,
// messages that go when the field is fixed (JS), a locked mandate's correction folded away in
// 'Sie', neutral marks for open states, and no '#fehler' left in the confirmation's address.
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { guardians, participants, registrations, sepaMandates } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { createEvent } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();



/** Where the permission questions' legends and their Ja/Nein labels are, and every label's height. */
function layout(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) };
    };
    const questions = [...document.querySelectorAll(".enroll-form fieldset.yes-no")].map((set) => ({
      legend: box(set.querySelector("legend")!),
      options: [...set.querySelectorAll("label")].map(box),
    }));
    const labels = [...document.querySelectorAll(".enroll-form label.checkbox")]
      .filter((label) => (label as HTMLElement).offsetParent !== null)
      .map((label) => ({ text: label.textContent!.trim().slice(0, 30), height: Math.round(label.getBoundingClientRect().height) }));
    return { questions, labels, width: document.documentElement.scrollWidth };
  });
}

describe.each(JS_MODES)("enrolment form after the review $name", ({ javaScriptEnabled }) => {
  it("preselects the guardian, lays out the questions for a thumb, names each unanswered one, and confirms without #fehler", async () => {
    const parent = await createUser({ firstName: "Eva", lastName: "Muster" });
    const mia = db
      .insert(participants)
      .values({ userId: parent.id, firstName: "Mia", lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2015-05-01" })
      .returning()
      .get();
    const eva = db.insert(guardians).values({ userId: parent.id, firstName: "Eva", lastName: "Muster" }).returning().get();
    const camp = createEvent({ title: `Prüflager ${javaScriptEnabled ? "JS" : "ohne"} ${Date.now()}`, permitsRequired: true, priceCents: 15000 });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    await page.goto(`/enroll/${camp.id}`);
    const box = page.getByRole("group", { name: "Teilnehmer*in 1" });
    await box.waitFor();

    // 1. The child is a minor and the account has one guardian: she is chosen, not 'Keine'.
    expect(await box.getByLabel("Kind*").inputValue()).toBe(String(mia.id));
    expect(await box.getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").inputValue()).toBe(String(eva.id));

    // 3. Each question on its own line, Ja and Nein side by side below it; 44-px tap targets.
    const shown = await layout(page);
    expect(shown.questions).toHaveLength(4);
    for (const { legend, options } of shown.questions) {
      expect(options).toHaveLength(2);
      expect(options[0].top).toBeGreaterThanOrEqual(legend.bottom - 1);
      expect(options[1].top).toBe(options[0].top);
    }
    expect(shown.labels.filter((l) => l.height < 44)).toEqual([]);
    expect(shown.labels.length).toBeGreaterThanOrEqual(8 + 2 + 1); // Ja/Nein ×4, payment, terms
    expect(shown.width).toBeLessThanOrEqual(360);

    // 2. One message per unanswered question, each naming it and linking to its field.
    await box.getByRole("group", { name: "Darf wandern gehen*" }).getByLabel("Ja", { exact: true }).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    const summary = page.locator("#fehler");
    await summary.waitFor();
    const entries = await summary.getByRole("listitem").allTextContents();
    expect(entries).toEqual([
      "Teilnehmer*in 1: „Darf schwimmen gehen?“ Bitte wähle Ja oder Nein.",
      "Teilnehmer*in 1: „Kann schwimmen?“ Bitte wähle Ja oder Nein.",
      "Teilnehmer*in 1: „Darf Kanu fahren?“ Bitte wähle Ja oder Nein.",
      "Bitte wähle eine Zahlungsart.",
      "Bitte bestätige die Teilnahmebedingungen und die Datenschutzerklärung.",
    ]);
    for (const href of await summary.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
      expect(await page.locator(href).count()).toBe(1);
    }
    // Without JavaScript too, the page opens at the summary.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("fehler");
    expect(await box.getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").inputValue()).toBe(String(eva.id));

    // 4. With JavaScript a fixed field loses its message at once (and its line in the summary).
    await page.getByLabel("Überweisung").check();
    await box.getByRole("group", { name: "Kann schwimmen*" }).getByLabel("Nein", { exact: true }).check();
    if (javaScriptEnabled) {
      expect(await page.locator("#paymentMethod-error").count()).toBe(0);
      expect(await page.locator("#boxes-0--canSwim-error").count()).toBe(0);
      expect(await summary.getByRole("link", { name: "Bitte wähle eine Zahlungsart." }).count()).toBe(0);
      expect(await page.locator("#boxes-0--allowedToSwim-error").textContent()).toBe("„Darf schwimmen gehen?“ Bitte wähle Ja oder Nein.");
    }
    await box.getByRole("group", { name: "Darf schwimmen gehen*" }).getByLabel("Ja", { exact: true }).check();
    await box.getByRole("group", { name: "Darf Kanu fahren*" }).getByLabel("Nein", { exact: true }).check();
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();

    // 8. The confirmation's address carries no '#fehler'; 6. open states have no cross.
    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();
    expect(new URL(page.url()).hash).toBe("");
    const text = (await page.getByRole("main").textContent()) ?? "";
    expect(text).toContain("Mia Muster ○ Anmeldung eingegangen – Bestätigung ausstehend ○ Zahlung ausstehend");
    expect(text).not.toContain("✗");
    expect(db.select().from(registrations).where(eq(registrations.participantId, mia.id)).get()?.guardianId).toBe(eva.id);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("folds a locked mandate's correction into 'Mandat korrigieren' and says 'Sie' throughout", async () => {
    const parent = await createUser();
    const camp = createEvent({ title: `Mandatslager ${javaScriptEnabled ? "JS" : "ohne"} ${Date.now()}` });
    db.insert(sepaMandates)
      .values({ userId: parent.id, eventId: camp.id, firstName: "Eva", lastName: "Muster", street: "Weg 1", postalCode: "24103", city: "Kiel", iban: "DE89370400440532013000" })
      .run();
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    await page.goto(`/enroll/${camp.id}`);
    const sepa = page.locator("#sepa");
    await sepa.waitFor();
    const words = (await sepa.textContent()) ?? "";
    expect(words).toContain("Für diese Veranstaltung gibt es schon Ihr SEPA-Lastschriftmandat (Eva Muster, DE89 3704 0044 0532 0130 00)");
    expect(words).not.toMatch(/\b(du|dein|deine|deinem|deiner|dich|dir)\b/i);
    expect((await page.locator("#zahlung").textContent()) ?? "").not.toMatch(/\b(dein|Ihr)\b/i);
    // The empty mandate form is folded away; the summary opens it, also without JavaScript.
    expect(await page.getByLabel("IBAN").isVisible()).toBe(false);
    const correct = sepa.getByText("Mandat korrigieren", { exact: true });
    expect(await correct.evaluate((el) => el.tagName)).toBe("SUMMARY");
    expect((await correct.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await correct.click();
    expect(await page.getByLabel("IBAN").isVisible()).toBe(true);
    // A correction begun and refused comes back open, its messages in 'Sie'.
    await page.getByLabel("IBAN").fill("DE00 1234");
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.locator("#fehler").waitFor();
    expect(await page.getByLabel("IBAN").isVisible()).toBe(true);
    const entries = await page.locator("#fehler").getByRole("listitem").allTextContents();
    expect(entries.length).toBeGreaterThan(0);
    // Never both forms of address in one box (DECISIONS.md; a parents' review found the summary
    // listing the boxes' 'du' beside the mandate's 'Sie'): the summary names the mandate's fields
    // to check, in neither form, and links to them; their own messages stand beside them in 'Sie'.
    const du = /\b(du|dein\w*|dich|dir|gib|wähle|prüfe|bestätige|melde|korrigiere|lade)\b/i;
    const sie = /\b(Sie|Ihr\w*)\b/;
    const box = (await page.locator("#fehler").textContent()) ?? "";
    expect(du.test(box) && sie.test(box), box).toBe(false);
    const sepaEntries = entries.filter((e) => e.startsWith("SEPA-Lastschriftmandat: "));
    expect(sepaEntries).toEqual(expect.arrayContaining(["SEPA-Lastschriftmandat: IBAN prüfen", "SEPA-Lastschriftmandat: Zustimmung zum Mandat prüfen"]));
    for (const entry of sepaEntries) expect(entry).not.toMatch(du);
    for (const entry of sepaEntries) expect(entry).not.toMatch(sie);
    expect(await sepa.getByText("Bitte bestätigen Sie das SEPA-Lastschriftmandat.").isVisible()).toBe(true);
    await page.locator("#fehler").getByRole("link", { name: "SEPA-Lastschriftmandat: IBAN prüfen" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("sepa.iban");
    expect(problems).toEqual([]);
    await context.close();
  });
});
