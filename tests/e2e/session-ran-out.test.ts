// A parent fills in the enrolment form on a phone while the session runs out (a tab left open for
// days): after the login the form stands there again, filled in as typed, and enrols. Before,
// everything typed was lost (a parent's review; decision 0020). With and without JavaScript.
import { describe, expect, inject, it } from "vitest";
import { eq } from "drizzle-orm";
import { parkedForms, registrations, sessions } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, hydrated, JS_MODES } from "../support/browser";
import { parentOnEnrolmentForm } from "../support/enrolment-form";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();
const NEEDS = "Erdnussallergie, Notfallspritze im Rucksack";

describe.each(JS_MODES)("the enrolment form after the session ran out $name", ({ javaScriptEnabled }) => {
  it("is there again after the login, filled in as typed, and enrols", async () => {
    const { page, problems, context, parent, child, camp } = await parentOnEnrolmentForm(browser(), {
      javaScriptEnabled,
      baseURL: baseUrl,
      title: "Zeltlager",
      password: "Aufbewahrt-2026!",
    });
    await page.getByLabel("Besonderheiten (Allergien, Medikamente …)").fill(NEEDS);
    await page.getByLabel("Wie hast du von uns erfahren?").fill("Von Nachbarn");
    await page.getByLabel("Überweisung", { exact: true }).check();
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();

    // Days later: the session has run out while the tab stayed open.
    db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, parent.id)).run();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    const status = page.getByRole("status");
    await status.getByText("Ihre Sitzung ist abgelaufen").waitFor();
    expect(await status.textContent()).toContain("Ihre Angaben sind eine Stunde lang aufbewahrt: Nach dem Einloggen stehen sie wieder darin.");
    expect(db.select().from(parkedForms).where(eq(parkedForms.userId, parent.id)).all()).toHaveLength(1);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/login-formular-aufbewahrt-${javaScriptEnabled}.png` });

    if (javaScriptEnabled) await hydrated(page);
    await page.getByLabel("E-Mail").fill(parent.email);
    await page.getByLabel("Passwort", { exact: true }).fill("Aufbewahrt-2026!");
    await page.getByLabel("Passwort", { exact: true }).press("Enter");
    await page.waitForURL((url) => url.pathname === `/enroll/${camp.id}`);
    await page.getByText("Deine Angaben von vorhin sind wieder eingetragen.").waitFor();
    expect(await page.getByLabel("Kind*").inputValue()).toBe(String(child.id));
    expect(await page.getByLabel("Besonderheiten (Allergien, Medikamente …)").inputValue()).toBe(NEEDS);
    expect(await page.getByLabel("Wie hast du von uns erfahren?").inputValue()).toBe("Von Nachbarn");
    expect(await page.getByLabel("Überweisung", { exact: true }).isChecked()).toBe(true);
    expect(db.select().from(parkedForms).where(eq(parkedForms.userId, parent.id)).all()).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/formular-aufbewahrt-${javaScriptEnabled}.png`, fullPage: false });

    if (javaScriptEnabled) await hydrated(page);
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();
    const [registration] = db.select().from(registrations).where(eq(registrations.eventId, camp.id)).all();
    expect(registration).toMatchObject({ participantId: child.id, specialNeeds: NEEDS });
    expect(problems).toEqual([]);
    await context.close();
  });
});
