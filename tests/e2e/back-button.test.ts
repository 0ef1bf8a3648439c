// Back after a reload (a parent's review): with JavaScript, a form's answer that led to a page
// without scripts (the enrolment's confirmation) was drawn in
// place. Reloading that page gave a document without React Router, and Back then changed the
// address but not the screen: the confirmation stayed under the form's address. Pages without
// scripts are now always reached by a document load, as without JavaScript.
import { describe, expect, inject, it } from "vitest";
import { participants } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, hydrated, JS_MODES, phoneTab } from "../support/browser";
import { createEvent } from "../support/events";
import { createUser } from "../support/fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

describe.each(JS_MODES)("Back after a reload $name", ({ javaScriptEnabled }) => {
  it("leads from the reloaded confirmation back to the enrolment form", async () => {
    const parent = await createUser({ firstName: "Petra", lastName: "Paulsen" });
    const child = db
      .insert(participants)
      .values({ userId: parent.id, firstName: "Lotta", lastName: "Paulsen", street: "Strandweg 3", city: "Eutin", birthDate: "2005-04-01" })
      .returning()
      .get();
    const camp = createEvent({ title: `Kanufreizeit ${javaScriptEnabled ? "A" : "B"} ${Date.now()}`, priceCents: 9900, inDays: 40 });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id });
    await page.goto(`/enroll/${camp.id}`);
    if (javaScriptEnabled) await hydrated(page);
    await page.getByLabel("Kind*").selectOption(String(child.id));
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
    expect(problems).toEqual([]);
    await context.close();
  });
});
