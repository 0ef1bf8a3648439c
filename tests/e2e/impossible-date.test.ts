// A date the calendar does not have, typed into Chromium's own date field ("30.02."): the browser
// sends the field empty, so the server said "Bitte gib das Geburtsdatum an." to a parent who had
// just typed one (parents' review). With JavaScript the form says what the browser knows: the
// date typed is not a valid one. Without JavaScript only the browser knows, and it sends nothing.
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, hydrated, phoneTab } from "../support/browser";
import { createEvent, daysFromToday } from "../support/events";
import { createUser } from "../support/fixtures";
import { addHelperEntry } from "../support/helper-camp";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

describe("an impossible date typed into the browser's date field", () => {
  it("is refused as not a valid date, next to the field and in the summary", async () => {
    const parent = await createUser({ firstName: "Dora", lastName: "Datum" });
    const camp = createEvent({ title: `Datumslager ${Date.now()}` });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled: true, baseURL: baseUrl, userId: parent.id });
    await page.goto(`/enroll/${camp.id}`);
    await hydrated(page);
    const box = page.getByRole("group", { name: "Teilnehmer*in 1" });
    await box.getByLabel("Vorname*").first().fill("Emil");
    await box.getByLabel("Nachname*").first().fill("Datum");
    await box.getByLabel("Straße und Hausnummer*").fill("Kalenderweg 1");
    await box.getByLabel("Ort*").fill("Kiel");
    const birthDate = box.getByLabel("Geburtsdatum*");
    await birthDate.focus();
    // The 30th of February. Headless Chromium's field reads month, day, year whatever the locale.
    await page.keyboard.type("02302016");
    expect(await birthDate.evaluate((input: HTMLInputElement) => [input.value, input.validity.badInput])).toEqual(["", true]);
    await box.getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").selectOption("neu");
    await box.getByLabel("Vorname*").nth(1).fill("Dora");
    await box.getByLabel("Nachname*").nth(1).fill("Datum");
    await page.getByLabel("Überweisung").check();
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();

    const summary = page.locator("#fehler");
    await expect.poll(() => summary.getByRole("link").allTextContents()).toEqual(["Teilnehmer*in 1 (neues Kind): Bitte gib ein gültiges Geburtsdatum an."]);
    expect(await page.locator(`#${await birthDate.getAttribute("aria-describedby")}`).textContent()).toContain("Bitte gib ein gültiges Geburtsdatum an.");
    expect(problems).toEqual([]);
    await context.close();
  });

  // Every page with a date field runs the page's JavaScript, or the browser sends the field empty
  // (an attacker's probe: the helper details had none, and said "Bitte gib das Datum der Einsicht an.").
  it("is refused so on a lead person's helper details too", async () => {
    const admin = await createUser({ role: "admin" });
    const helper = await createUser({ firstName: "Hanna", lastName: "Helfer" });
    const camp = createEvent({ title: `Helferlager ${Date.now()}`, dateFrom: daysFromToday(40), dateTo: daysFromToday(47) });
    addHelperEntry(camp.id, helper.id, "accepted");
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled: true, baseURL: baseUrl, userId: admin.id });
    await page.goto(`/freizeit/helper/${camp.id}/helper-details/${helper.id}`);
    await hydrated(page);
    const checkedOn = page.getByLabel("Eingesehen am");
    await checkedOn.focus();
    await page.keyboard.type("02302026");
    expect(await checkedOn.evaluate((input: HTMLInputElement) => input.validity.badInput)).toBe(true);
    await page.getByLabel("Eingesehen von").fill("Frau Prüfer");
    await page.getByRole("button", { name: "Nachweise speichern" }).click();
    await expect.poll(() => page.locator("#check-policeCertificateCheckedOn-error").textContent()).toBe("Bitte gib ein gültiges Datum an.");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("is refused so on the event form, in its words, with a start time typed only in part", async () => {
    const admin = await createUser({ role: "admin" });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled: true, baseURL: baseUrl, userId: admin.id });
    await page.goto("/freizeit/create");
    await hydrated(page);
    await page.getByLabel("Titel*").fill("Kalenderlager");
    const start = page.getByLabel("Startdatum*");
    await start.focus();
    await page.keyboard.type("02302027");
    const time = page.getByLabel("Startzeit*");
    await time.focus();
    await page.keyboard.type("10");
    expect(await page.evaluate(() => ["dateFrom", "timeFrom"].map((n) => document.querySelector<HTMLInputElement>(`[name=${n}]`)!.validity.badInput))).toEqual([true, true]);
    await page.getByRole("button", { name: "Veranstalltung veröffentlichen" }).click();
    await expect.poll(() => page.locator(`[name=dateFrom]`).getAttribute("aria-invalid")).toBe("true");
    const errorOf = async (name: string) => {
      const id = (await page.locator(`[name=${name}]`).getAttribute("aria-describedby"))!.split(" ").find((i) => i.endsWith("error"))!;
      return page.locator(`[id="${id}"]`).textContent();
    };
    expect(await errorOf("dateFrom")).toContain("Bitte geben Sie ein gültiges Datum an.");
    expect(await errorOf("timeFrom")).toContain("Bitte geben Sie eine Uhrzeit wie 09:30 an.");
    expect(problems).toEqual([]);
    await context.close();
  });
});
