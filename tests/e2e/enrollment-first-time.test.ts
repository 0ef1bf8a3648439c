// Issue 9, 'Proven by': a first-time parent on a 360 × 740 phone, with JavaScript and without.
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { guardians, participants, registrations } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, hydrated, JS_MODES, openTab, addBox } from "../support/browser";
import { createEvent } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();


describe.each(JS_MODES)("a first-time parent enrols two children $name", ({ javaScriptEnabled }) => {
  it("types the guardian once, saves midway, gets all mistakes at once, and finds the confirmation again", async () => {
    const parent = await createUser({ firstName: "Petra", lastName: "Paulsen" });
    const camp = createEvent({ title: `Ostseelager ${javaScriptEnabled ? "JS" : "ohne"} ${Date.now()}`, priceCents: 20000, siblingDiscountCents: 2000, tshirtSizeRequired: true });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    const box = (n: number) => page.getByRole("group", { name: `Teilnehmer*in ${n}` });

    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("link", { name: "Anmelden", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: `Anmeldeformular: ${camp.title}` }).waitFor();
    // A guardian chosen before the page's JavaScript runs would show no fields (the test would wait).
    if (javaScriptEnabled) await hydrated(page);

    // Box 1: a new child (the default for a new account) and a new guardian.
    await box(1).getByLabel("Vorname*").first().fill("Finn");
    await box(1).getByLabel("Nachname*").first().fill("Paulsen");
    await box(1).getByLabel("Straße und Hausnummer*").fill("Strandweg 3");
    await box(1).getByLabel("Ort*").fill("Eutin");
    await box(1).getByLabel("Geburtsdatum*").fill("2016-08-15");
    await box(1).getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").selectOption("neu");
    if (!javaScriptEnabled) await box(1).getByRole("button", { name: "Auswahl übernehmen" }).last().click();
    await box(1).getByLabel("Vorname*").nth(1).fill("Petra");
    await box(1).getByLabel("Nachname*").nth(1).fill("Paulsen");

    // Saved into the account midway: both stay chosen.
    await box(1).getByRole("button", { name: "Im Konto speichern" }).click();
    await expect.poll(() => db.select().from(participants).where(eq(participants.userId, parent.id)).all().length).toBe(1);
    const finn = db.select().from(participants).where(eq(participants.userId, parent.id)).get()!;
    const petra = db.select().from(guardians).where(eq(guardians.userId, parent.id)).get()!;
    await expect.poll(() => box(1).getByLabel("Kind*").inputValue()).toBe(String(finn.id));
    expect(await box(1).getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").inputValue()).toBe(String(petra.id));
    // Said in the box, where the parent is (parents' review: the fields just vanished).
    expect(await box(1).getByRole("status").textContent()).toBe("Gespeichert: Finn Paulsen und Petra Paulsen sind jetzt in deinem Konto und hier ausgewählt.");
    if (process.env.SCREENSHOT_DIR) await box(1).screenshot({ path: `${process.env.SCREENSHOT_DIR}/box-gespeichert-${javaScriptEnabled}.png` });

    // Box 2: the guardian is offered and already chosen.
    await addBox(page, 2);
    expect(await box(2).getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").inputValue()).toBe(String(petra.id));
    await box(2).getByLabel("Vorname*").fill("Lotta");
    await box(2).getByLabel("Nachname*").fill("Paulsen");
    await box(2).getByLabel("Straße und Hausnummer*").fill("Strandweg 3");
    await box(2).getByLabel("Ort*").fill("Eutin");
    await box(2).getByLabel("T-Shirt-Größe*").selectOption("S");

    // SEPA chosen: its section appears (at once, or after 'Weiter'); Enter in the IBAN field
    // answers like the enrolment's submit: no box added, nothing lost.
    expect(await page.getByLabel("IBAN").isVisible()).toBe(false);
    await page.getByLabel("SEPA-Lastschriftmandat", { exact: true }).check();
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Weiter", exact: true }).click();
    // Every field of a new mandate is needed; the section says so once (a star after
    // 'Kontoinhaber*in' would read as part of the word).
    expect(await page.getByRole("group", { name: "SEPA-Lastschriftmandat" }).getAttribute("aria-describedby")).toBe("sepa-hinweis");
    expect(await page.locator("#sepa-hinweis").textContent()).toBe("Alle Angaben und beide Häkchen sind nötig.");
    await page.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
    await page.getByLabel("IBAN").press("Enter");
    await page.locator("#fehler").waitFor();
    expect(await page.getByRole("group", { name: /^Teilnehmer\*in \d$/ }).count()).toBe(2);
    expect(await box(2).getByLabel("Vorname*").inputValue()).toBe("Lotta");
    expect(await page.getByLabel("IBAN").inputValue()).toBe("DE89 3704 0044 0532 0130 00");

    // Back to a bank transfer; three mistakes: no T-shirt for Finn, no birth date for Lotta, terms.
    await page.getByLabel("Überweisung").check();
    if (javaScriptEnabled) {
      expect(await page.getByLabel("IBAN").isVisible()).toBe(false);
      // Back to SEPA and again to a transfer: what was typed in the section is still there.
      await page.getByLabel("SEPA-Lastschriftmandat", { exact: true }).check();
      expect(await page.getByLabel("IBAN").inputValue()).toBe("DE89 3704 0044 0532 0130 00");
      await page.getByLabel("Überweisung").check();
    }
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    const summary = page.locator("#fehler");
    await expect.poll(() => summary.getByRole("link").count()).toBe(3);
    expect(await summary.getByRole("link").allTextContents()).toEqual([
      "Teilnehmer*in 1: Bitte wähle eine T-Shirt-Größe.",
      "Teilnehmer*in 2 (neues Kind): Bitte gib das Geburtsdatum an.",
      "Bitte bestätige die Teilnahmebedingungen und die Datenschutzerklärung.",
    ]);
    // The page opens at the summary: focused with JavaScript, by autofocus without.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("fehler");
    expect(await page.getByLabel("Überweisung").isChecked()).toBe(true);

    await box(1).getByLabel("T-Shirt-Größe*").selectOption("M");
    await box(2).getByLabel("Geburtsdatum*").fill("2018-03-01");
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();

    // The confirmation: its own page, the total after the sibling discount, the GiroCode.
    const title = page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` });
    await title.waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/anmeldung\/\d+$/);
    // It opens at its top (the heading, the total), not where the long form was scrolled to.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const check = async () => {
      const text = (await page.getByRole("main").textContent()) ?? "";
      expect(text).toMatch(/Gesamtbetrag: 380,00\s€/);
      expect(text).toContain("Finn Paulsen ○ Anmeldung eingegangen – Bestätigung ausstehend ○ Zahlung ausstehend");
      expect(text).toMatch(/Verwendungszweck\s*LF-\d+-A\d+/);
      expect(await page.locator(".girocode svg path").count()).toBe(1);
    };
    await check();
    // No '#fehler' carried over the redirect (the form's address has none).
    expect(new URL(page.url()).hash).toBe("");
    const confirmationPath = new URL(page.url()).pathname;
    await page.reload();
    await title.waitFor();
    await check();

    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("link", { name: "Anmeldebestätigung ansehen" }).click();
    await title.waitFor();
    expect(new URL(page.url()).pathname).toBe(confirmationPath);

    expect(db.select().from(participants).where(eq(participants.userId, parent.id)).all().map((c) => c.firstName).sort()).toEqual(["Finn", "Lotta"]);
    expect(db.select().from(guardians).where(eq(guardians.userId, parent.id)).all()).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe.each(JS_MODES)("a guardian typed into one box $name", ({ javaScriptEnabled }) => {
  it("is offered in the other box and created once with the enrolment", async () => {
    const parent = await createUser();
    const camp = createEvent({ title: `Geschwisterlager ${javaScriptEnabled ? "JS" : "ohne"} ${Date.now()}` });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    const box = (n: number) => page.getByRole("group", { name: `Teilnehmer*in ${n}` });
    const guardianOf = (n: number) => box(n).getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)");
    await page.goto(`/enroll/${camp.id}`);
    await addBox(page, 2);
    await guardianOf(1).selectOption("neu");
    if (!javaScriptEnabled) await box(1).getByRole("button", { name: "Auswahl übernehmen" }).last().click();
    await box(1).getByLabel("Vorname*").nth(1).fill("Jonas");
    await box(1).getByLabel("Nachname*").nth(1).fill("Berg");
    // With JavaScript at once; without, after the next answer of the server.
    if (!javaScriptEnabled) await box(1).getByRole("button", { name: "Auswahl übernehmen" }).last().click();
    await guardianOf(2).selectOption({ label: "Jonas Berg (wie bei Teilnehmer*in 1)" });
    for (const [n, name] of [[1, "Mara"], [2, "Emil"]] as const) {
      await box(n).getByLabel("Vorname*").first().fill(name);
      await box(n).getByLabel("Nachname*").first().fill("Berg");
      await box(n).getByLabel("Straße und Hausnummer*").first().fill("Am See 1");
      await box(n).getByLabel("Ort*").first().fill("Plön");
      await box(n).getByLabel("Geburtsdatum*").fill(n === 1 ? "2015-06-01" : "2017-06-01");
    }
    await page.getByLabel("Überweisung").check();
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();
    const jonas = db.select().from(guardians).where(eq(guardians.userId, parent.id)).all();
    expect(jonas.map((g) => g.firstName)).toEqual(["Jonas"]);
    expect(db.select().from(registrations).where(eq(registrations.eventId, camp.id)).all().map((r) => r.guardianId)).toEqual([jonas[0].id, jonas[0].id]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the event page for a visitor", () => {
  it("asks to sign in to enrol, and the link comes back to the event", async () => {
    const camp = createEvent({ title: `Besuchslager ${Date.now()}` });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled: false, baseURL: baseUrl });
    await page.goto(`/freizeit/${camp.id}`);
    expect(await page.getByRole("link", { name: "Zum Anmelden bitte einloggen" }).getAttribute("href")).toBe(`/login?redirectTo=/freizeit/${camp.id}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("an unknown event", () => {
  it("answers /enroll/{id} with the spec's message", async () => {
    const parent = await createUser();
    const { page, context } = await openTab(browser(), { javaScriptEnabled: false, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    const response = await page.goto("/enroll/987654");
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("alert").textContent()).toBe("Die Freizeit wurde nicht gefunden oder konnte nicht geladen werden");
    // The page keeps its header for the signed-in parent: Logout, no Login.
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Login" }).count()).toBe(0);
    await context.close();
  });
});
