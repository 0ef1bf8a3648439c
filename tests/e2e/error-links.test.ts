// A refused form opens at its list of messages, each a link to its field (screens' review: with
// JavaScript such a link, and the skip link, was a client navigation that dropped the server's
// answer, so the form went back to its first state and what the parent typed was gone; and the
// list's heading was above the screen on a phone).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { fileBrowser, hydrated, JS_MODES, openTab, phoneTab, addBox } from "../support/browser";
import { addHelperEntry } from "../support/helper-camp";
import { createEvent, daysFromToday, pngBytes } from "../support/events";
import { createUser } from "../support/fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

/** Where the answer's list starts in the window, and what has the focus. */
async function view(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const box = document.querySelector(selector)!.getBoundingClientRect();
    // JavaScript scrolls an answer to the window's top, to a fraction of a pixel above it.
    return { top: Math.round(box.top), inView: box.top >= -1 && box.top < window.innerHeight / 2 };
  }, selector);
}

/** Sends the account's password form with these three fields. */
async function changePassword(page: Page, current: string, next: string, repeat: string) {
  await page.getByLabel("Aktuelles Passwort").fill(current);
  await page.getByLabel("Neues Passwort", { exact: true }).fill(next);
  await page.getByLabel("Neues Passwort wiederholen").fill(repeat);
  await page.getByRole("button", { name: "Passwort ändern" }).click();
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.id ?? document.activeElement?.tagName);

describe.each(JS_MODES)("a refused form's list of messages $name", ({ javaScriptEnabled }) => {
  it("sign-up: the list's top is in view; a link goes to its field and keeps what was typed", async () => {
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto("/signup");
    await page.getByLabel("Nachname*").fill("Petersen");
    await page.getByLabel("E-Mail*").fill("paula.petersen@example.org");
    await page.getByRole("button", { name: "Account erstellen" }).click();
    const list = page.locator(".form-alert");
    await list.getByRole("link", { name: /Vorname/ }).waitFor();
    expect(await view(page, ".form-alert")).toMatchObject({ inView: true });
    await list.getByRole("link", { name: /Vorname/ }).click();
    await page.waitForTimeout(300);
    expect(await focused(page)).toBe("firstName");
    expect(await page.getByLabel("Nachname*").inputValue()).toBe("Petersen");
    expect(await page.getByLabel("E-Mail*").inputValue()).toBe("paula.petersen@example.org");
    expect(await list.count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("enrolment: the list's heading is in view; a link and the skip link keep the form as the server answered it", async () => {
    const parent = await createUser();
    const camp = createEvent({ title: `Sprunglager ${Date.now()}`, inDays: 30 });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id, height: 640 });
    await page.goto(`/enroll/${camp.id}`);
    // Two children's boxes make a list taller than the phone's screen.
    await addBox(page, 2);
    await page.getByLabel("Vorname*").first().fill("Nele");
    await page.getByLabel("Wie hast du von uns erfahren?").fill("Vom Sportverein");
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    const summary = page.locator("#fehler");
    await summary.getByRole("heading", { name: "Mindestens ein Feld ist nicht valide" }).waitFor();
    expect(await view(page, "#fehler-titel")).toMatchObject({ inView: true });

    await summary.getByRole("link", { name: /Bitte wähle eine Zahlungsart/ }).click();
    await page.waitForTimeout(300);
    expect(await focused(page)).toBe("paymentMethod");
    expect(await page.getByLabel("Vorname*").first().inputValue()).toBe("Nele");
    expect(await page.getByLabel("Wie hast du von uns erfahren?").inputValue()).toBe("Vom Sportverein");
    expect(await summary.count()).toBe(1);

    await page.getByRole("link", { name: "Zum Inhalt springen" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    if (javaScriptEnabled) expect(await focused(page)).toBe("inhalt");
    expect(await page.getByLabel("Vorname*").first().inputValue()).toBe("Nele");
    expect(await summary.count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("account: a refused change opens at its own form's message, not at the top of the page", async () => {
    // Parents' review: without JavaScript a wrong current password answered at the page's top,
    // its message some 1,300 px further down on a phone.
    const parent = await createUser({ password: "Erstes-Passwort-1" });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id, height: 640 });
    await page.goto("/account");
    await changePassword(page, "Falsches-Passwort-9", "Zweites-Passwort-2", "Zweites-Passwort-2");
    const alert = page.locator("#password .form-alert");
    await alert.getByText("Das aktuelle Passwort ist nicht korrekt.").waitFor();
    await expect.poll(() => view(page, "#password .form-alert")).toMatchObject({ inView: true });

    await page.getByRole("textbox", { name: "E-Mail", exact: true }).fill("keine-adresse");
    await page.getByRole("button", { name: "E-Mail ändern" }).click();
    await page.locator("#email .form-alert").waitFor();
    await expect.poll(() => view(page, "#email .form-alert")).toMatchObject({ inView: true });
    expect(await page.evaluate(() => document.activeElement?.closest("#email") !== null)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("account: a refused form opens with its heading and its message in view (screens' review: at the screen's foot, or the heading above it)", async () => {
    const parent = await createUser({ password: "Erstes-Passwort-1" });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id, height: 700 });
    for (const width of [320, 360]) {
      await page.setViewportSize({ width, height: 700 });
      await page.goto("/account");
      if (javaScriptEnabled) await hydrated(page);
      const shown = (heading: string, alert: string) =>
        page.evaluate(
          ([heading, alert]) => {
            const h = document.getElementById(heading)!.getBoundingClientRect();
            const a = document.querySelector(alert)!.getBoundingClientRect();
            return { heading: h.top >= -1, alert: a.top < window.innerHeight / 2 && a.bottom <= window.innerHeight + 1 };
          },
          [heading, alert],
        );
      await page.getByRole("textbox", { name: "E-Mail", exact: true }).fill("keine-adresse");
      await page.getByRole("button", { name: "E-Mail ändern" }).click();
      await page.locator("#email .form-alert").waitFor();
      await expect.poll(() => shown("email-title", "#email .form-alert")).toEqual({ heading: true, alert: true });

      await changePassword(page, "Erstes-Passwort-1", "Zweites-Passwort-2", "Zweites-Passwort-3");
      await page.locator("#password .form-alert").waitFor();
      await expect.poll(() => shown("password-title", "#password .form-alert")).toEqual({ heading: true, alert: true });
      // Only the repeat differed: its rule is marked, the others stay open (the fields are empty).
      expect(await page.locator("#account-password-rules li").evaluateAll((items) => items.map((li) => li.className))).toEqual([
        ...Array(5).fill("check-open"),
        "check-missing",
      ]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("password change: the summary names every wrong field, each a link to it (screens' review: only the first problem)", async () => {
    const parent = await createUser({ password: "Erstes-Passwort-1" });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id, height: 640 });
    await page.goto("/account");
    if (javaScriptEnabled) await hydrated(page);
    await changePassword(page, "Falsches-Passwort-9", "kurz", "kurz");
    const summary = page.locator("#password .form-alert");
    await summary.getByRole("link", { name: /Aktuelles Passwort/ }).waitFor();
    expect(await summary.getByRole("link").allTextContents()).toEqual([
      "Aktuelles Passwort: Das aktuelle Passwort ist nicht korrekt.",
      "Neues Passwort: Passwort entspricht nicht den Anforderungen",
    ]);
    await expect.poll(() => view(page, "#password .form-alert")).toMatchObject({ inView: true });
    await summary.getByRole("link", { name: /Neues Passwort/ }).click();
    await page.waitForTimeout(300);
    expect(await focused(page)).toBe("newPassword");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("helper checks: a refused form opens at its messages, each a link to its field (screens' review: 1,100 px below)", async () => {
    const admin = await createUser({ role: "admin" });
    const helper = await createUser({ firstName: "Hanna", lastName: "Helfer" });
    const camp = createEvent({ title: `Nachweislager ${Date.now()}`, dateFrom: daysFromToday(40), dateTo: daysFromToday(47) });
    addHelperEntry(camp.id, helper.id, "accepted");
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: admin.id, height: 640 });
    await page.goto(`/freizeit/helper/${camp.id}/helper-details/${helper.id}`);
    if (javaScriptEnabled) await hydrated(page);
    await page.getByLabel("Juleica-Nummer").fill("J-123");
    await page.getByLabel("Telefon (für das Lagerblatt)").fill("xx");
    await page.getByRole("button", { name: "Nachweise speichern" }).click();
    const list = page.locator(".helper-checks .form-alert");
    await list.getByRole("link", { name: /Telefon/ }).waitFor();
    await expect.poll(() => view(page, ".helper-checks .form-alert")).toMatchObject({ inView: true });
    expect(await list.getByRole("link").allTextContents()).toEqual([
      "Juleica gültig bis: Bitte gib an, bis wann die Juleica gilt.",
      "Telefon: Bitte gib eine Telefonnummer aus Ziffern an (höchstens 50 Zeichen).",
    ]);
    await list.getByRole("link", { name: /Telefon/ }).click();
    await page.waitForTimeout(300);
    expect(await focused(page)).toBe("phone");
    expect(await page.getByLabel("Juleica-Nummer").inputValue()).toBe("J-123");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("event form: every wrong field and every file to choose again is a link in the form's order", async () => {
    // Screens' review: the answer said only "Bitte prüfe die markierten Felder und wähle die
    // Dateien erneut aus."; on a phone the marked deadline was some 900 px further down, and the
    // files to choose again were not named.
    const admin = await createUser({ role: "admin" });
    const picture = path.join(mkdtempSync(path.join(tmpdir(), "lf-e2e-links-")), "zeltlager.png");
    writeFileSync(picture, pngBytes(400, 300));
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: admin.id, height: 640 });
    await page.goto("/freizeit/create");
    await page.getByLabel("Titel*").fill("Herbstlager");
    await page.getByLabel("Foto").setInputFiles(picture);
    await page.getByLabel("Beschreibung*").fill("Drei Tage im Wald.");
    await page.getByLabel("Startdatum*").fill(daysFromToday(40));
    await page.getByLabel("Startzeit*").fill("10:00");
    await page.getByLabel("Anmeldeschluss").fill(daysFromToday(45));
    await page.getByRole("button", { name: "Veranstalltung veröffentlichen" }).click();
    const list = page.locator(".form-alert");
    await list.getByRole("link").first().waitFor();
    expect(await list.getByRole("link").allTextContents()).toEqual([
      "Foto: Bitte wählen Sie das Foto erneut aus: zeltlager.png",
      "Anmeldeschluss: Der Anmeldeschluss darf nicht nach dem Startdatum liegen.",
      "Ort: Bitte geben Sie einen Ort an.",
    ]);
    expect(await view(page, ".form-alert")).toMatchObject({ inView: true });
    await list.getByRole("link", { name: /^Anmeldeschluss/ }).click();
    await page.waitForTimeout(300);
    expect(await focused(page)).toBe("registrationDeadline");
    expect(await page.getByLabel("Titel*").inputValue()).toBe("Herbstlager");
    expect(problems).toEqual([]);
    await context.close();
  });
});
