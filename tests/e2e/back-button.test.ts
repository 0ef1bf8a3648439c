// Back after a reload (a parent's review): with JavaScript, a form's answer that led to a page
// without scripts (the enrolment's confirmation) was drawn in
// place. Reloading that page gave a document without React Router, and Back then changed the
// address but not the screen: the confirmation stayed under the form's address. Pages without
// scripts are now always reached by a document load, as without JavaScript.
import { describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES } from "../support/browser";
import { parentOnEnrolmentForm } from "../support/enrolment-form";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

describe.each(JS_MODES)("Back after a reload $name", ({ javaScriptEnabled }) => {
  it("leads from the reloaded confirmation back to the enrolment form", async () => {
    const { page, problems, context, camp } = await parentOnEnrolmentForm(browser(), { javaScriptEnabled, baseURL: baseUrl, title: "Kanufreizeit" });
    await page.getByLabel("Überweisung", { exact: true }).check();
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/anmeldung/"));
    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();

    await page.reload();
    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe(`/enroll/${camp.id}`);
    await page.getByRole("heading", { level: 1, name: `Anmeldeformular: ${camp.title}` }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    // The form says who is enrolled already, and starts from the server's answer: the consent and
    // the payment are not ticked from the browser's copy of the last form (parents' walkthrough:
    // one tap enrolled the next child).
    await page.getByRole("note").filter({ hasText: /^Schon angemeldet: \S+ \S+\./ }).waitFor();
    expect(await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).isChecked()).toBe(false);
    expect(await page.getByLabel("Überweisung", { exact: true }).isChecked()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
