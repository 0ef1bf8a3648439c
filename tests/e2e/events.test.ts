import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { createEvent, daysFromToday, pdfBytes, pngBytes } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { files } from "../../db/schema";
import { db } from "~/services/db.server";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();
const dir = mkdtempSync(path.join(tmpdir(), "lf-e2e-files-"));
const picture = path.join(dir, "zeltlager.png");
const packliste = path.join(dir, "Packliste.txt");
const infobrief = path.join(dir, "Infobrief.pdf");

beforeAll(async () => {
  writeFileSync(picture, pngBytes(1600, 900));
  writeFileSync(packliste, "Schlafsack\nIsomatte\nTaschenlampe\n");
  writeFileSync(infobrief, pdfBytes());
});

describe.each(JS_MODES)("events $name", ({ javaScriptEnabled }) => {
  it("a parent sees why 'Anmelden' cannot be pressed on an event that has begun", async () => {
    const parent = await createUser();
    const camp = createEvent({ title: "Schon los", inDays: -2, dateTo: daysFromToday(3) });
    const over = createEvent({ title: "Vorbei", inDays: -2 });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    await page.goto(`/freizeit/${camp.id}`);
    const button = page.getByRole("button", { name: "Anmelden" });
    expect(await button.isDisabled()).toBe(true);
    const hint = await page.locator(`#${await button.getAttribute("aria-describedby")}`).textContent();
    expect(hint).toBe("Die Veranstaltung hat schon begonnen.");
    // A one-day event two days ago is over, and says so.
    await page.goto(`/freizeit/${over.id}`);
    const overButton = page.getByRole("button", { name: "Anmelden" });
    expect(await page.locator(`#${await overButton.getAttribute("aria-describedby")}`).textContent()).toBe("Die Veranstaltung ist vorbei.");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a lead person who is no admin sees on the edit form who leads, and that applied helpers stay", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leiterin" });
    const colead = await createUser({ firstName: "Kai", lastName: "Koleiter" });
    const camp = createEvent({ title: "Leitungslager", ownerIds: [lead.id, colead.id] });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(lead.id, baseUrl)]);
    await page.goto(`/freizeit/edit/${camp.id}`);
    const leads = page.getByRole("group", { name: "Leitung", exact: true });
    expect(await leads.textContent()).toContain("Kai Koleiter, Lea Leiterin");
    expect(await leads.textContent()).toContain("Die Leitung kann nur ein Admin ändern.");
    expect(await page.getByRole("group", { name: "Mitarbeiter*innen" }).textContent()).toContain("bleibt beim Speichern dabei");
    expect(problems).toEqual([]);
    await context.close();
  });

  // Leaders' review: the edit form's lead and helper boxes were 25 px rows 6 px apart on a phone,
  // easy to tick the wrong person; the event mail's audience rows 24 px.
  it("the choices of the edit form and the event mail are rows a thumb can hit on a phone", async () => {
    const admin = await createUser({ role: "admin", firstName: "Ada", lastName: "Admin" });
    await createUser({ role: "admin", firstName: "Bo", lastName: "Beta" });
    const camp = createEvent({ title: `Daumenlager ${Date.now()}`, ownerIds: [admin.id] });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
    for (const path of [`/freizeit/edit/${camp.id}`, `/freizeit/sendEmails/${camp.id}`]) {
      await page.goto(path);
      const heights = await page.locator("fieldset.choices label.checkbox:visible").evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().height));
      expect(heights.length, path).toBeGreaterThan(2);
      expect(heights.filter((h) => h < 44), path).toEqual([]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an admin creates an event with a picture and two attachments, edits it and deletes it", async () => {
    const admin = await createUser({ role: "admin", firstName: "Lena", lastName: "Leitung" });
    const title = `Zeltlager ${javaScriptEnabled ? "A" : "B"} ${Date.now()}`;
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
    await page.goto("/");
    await page.getByRole("link", { name: "Neue Veranstaltung anlegen" }).click();
    await page.getByRole("heading", { level: 1, name: "Neue Veranstaltung anlegen" }).waitFor();
    await page.getByLabel("Titel*").fill(title);
    await page.getByLabel("Beschreibung*").fill("Eine Woche Zelten am See mit Kanu und Lagerfeuer.");
    await page.getByLabel("Startdatum*").fill(daysFromToday(40));
    await page.getByLabel("Startzeit*").fill("10:00");
    await page.getByLabel("Enddatum").fill(daysFromToday(47));
    await page.getByLabel("Ort*").fill("Zeltplatz Koppelsberg");
    await page.getByLabel("Kosten pro Teilnehmer*in in € *").fill("149,50");
    await page.getByLabel("Plätze").fill("12");
    await page.getByLabel("Foto").setInputFiles(picture);
    await page.getByLabel("Neue Anhänge").setInputFiles([packliste, infobrief]);
    await page.getByRole("button", { name: "Veranstalltung veröffentlichen" }).click();

    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    const eventPath = new URL(page.url()).pathname;
    expect(eventPath).toMatch(/^\/freizeit\/\d+$/);
    const info = (await page.getByRole("region", { name: "Informationen" }).textContent())?.replace(/\u00a0/g, " ");
    expect(info).toContain("10:00 Uhr");
    expect(info).toContain("149,50 €");
    expect(info).toContain("Lena Leitung");
    expect(info).toContain("12");
    const img = page.locator(".detail-picture img");
    expect(await img.getAttribute("srcset")).toMatch(/-480\.webp 480w, .*-960\.webp 960w/);
    // Loaded and decodable (decode() waits for a picture still arriving, and fails for a broken one).
    await img.evaluate((el: HTMLImageElement) => el.decode());
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

    // The attachment opens in a new tab.
    const link = page.getByRole("link", { name: "Packliste.txt" });
    expect(await link.getAttribute("target")).toBe("_blank");
    const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await tab.waitForLoadState();
    expect(await tab.locator("body").textContent()).toContain("Schlafsack");
    await tab.close();

    // On the home list.
    await page.goto("/");
    const tile = page.getByRole("listitem").filter({ hasText: title });
    expect(await tile.getByRole("link", { name: "Bearbeiten" }).isVisible()).toBe(true);
    expect(await tile.locator("img").getAttribute("loading")).toBe("lazy");

    // Edit.
    await tile.getByRole("link", { name: "Bearbeiten" }).click();
    await page.getByRole("heading", { level: 1, name: "Veranstaltung bearbeiten" }).waitFor();
    expect(await page.getByLabel("Titel*").inputValue()).toBe(title);
    await page.getByLabel("Titel*").fill(`${title} (neu)`);
    await page.getByRole("button", { name: "Änderungen Speichern" }).click();
    await page.getByRole("heading", { level: 1, name: `${title} (neu)` }).waitFor();
    expect(await page.getByRole("link", { name: "Infobrief.pdf" }).isVisible()).toBe(true);

    // Delete, with the spec's question first.
    await page.getByRole("link", { name: "Löschen" }).click();
    await page.getByText("Sind Sie sicher, dass Sie diese Freizeit löschen möchten? Diese Aktion kann nicht rückgängig gemacht werden.").waitFor();
    // No one has enrolled or helps: no mail is promised (leaders' review).
    expect(await page.getByText("Es ist niemand angemeldet, es wird keine Absage verschickt.").isVisible()).toBe(true);
    await page.getByRole("alertdialog", { name: "Freizeit löschen" }).getByRole("button", { name: "Löschen" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByText("Veranstaltung gelöscht").waitFor();
    expect(await page.getByRole("link", { name: title }).count()).toBe(0);
    expect((await page.request.get(eventPath)).status()).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("files over 60 MB together: said at the field before sending with JavaScript; without it the refusal says how to get the form back", async () => {
    // Admins' review: seven PDFs of 9.4 MB each (each under its 10 MB) replaced the whole form
    // with a bare "Zu viele Daten" page; the hint named only the 10 MB per file.
    const admin = await createUser({ role: "admin" });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/freizeit/create");
    await page.getByLabel("Titel*").fill("Großes Lager");
    const hint = (await page.locator("#event-form-attachments-hint, [id$='-attachments-hint']").first().textContent()) ?? "";
    expect(hint).toContain("zusammen höchstens 60 MB");
    const big = Buffer.concat([pdfBytes(), Buffer.alloc(Math.round(9.4 * 1024 * 1024))]);
    const letters = Array.from({ length: 7 }, (_, i) => path.join(dir, `Brief${i + 1}.pdf`));
    for (const letter of letters) writeFileSync(letter, big);
    await page.getByLabel("Neue Anhänge").setInputFiles(letters);
    await page.getByRole("button", { name: "Veranstalltung veröffentlichen" }).click();
    if (javaScriptEnabled) {
      await page.getByText("Die Dateien sind zusammen 66 MB groß. Erlaubt sind höchstens 60 MB auf einmal.", { exact: false }).first().waitFor();
      expect(await page.getByLabel("Titel*").inputValue()).toBe("Großes Lager");
      expect(new URL(page.url()).pathname).toBe("/freizeit/create");
      expect(await page.getByLabel("Neue Anhänge").getAttribute("aria-invalid")).toBe("true");
    } else {
      await page.getByRole("heading", { name: "Zu viele Daten" }).waitFor();
      expect(await page.locator("main").textContent()).toContain("Gehen Sie im Browser einen Schritt zurück");
    }
    expect(problems.filter((p) => !/413/.test(p))).toEqual([]);
    await context.close();
  });

  it("shows a visitor the event without any action buttons", async () => {
    const camp = createEvent({ title: `Offenes Lager ${Date.now()}`, inDays: 20 });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("heading", { level: 1, name: camp.title }).waitFor();
    const main = page.getByRole("main");
    for (const name of ["Anmelden", "Als Helfer*in bewerben", "Bearbeiten", "Löschen", "E-Mail an alle", "Teilnehmer*innen-Liste"]) {
      expect(await main.getByRole("link", { name, exact: true }).count()).toBe(0);
      expect(await main.getByRole("button", { name, exact: true }).count()).toBe(0);
    }
    expect(await main.getByRole("link", { name: "Zurück zur Startseite" }).getAttribute("href")).toBe("/");
    expect(await main.getByRole("heading", { name: "Meine angemeldeten Teilnehmer*innen" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a long file name without spaces breaks on a 360 px phone instead of widening the page", async () => {
    const camp = createEvent({ title: `Lager mit Anhang ${Date.now()}`, inDays: 20 });
    const name = `${"Elternbrief".repeat(13)}Ende.pdf`;
    db.insert(files).values({ key: `lang-${camp.id}.pdf`, displayName: name, mimeType: "application/pdf", size: 9, kind: "attachment", eventId: camp.id }).run();
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("link", { name }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a user applies as helper and sees 'Bereits beworben'", async () => {
    const user = await createUser();
    const camp = createEvent({ title: `Helferlager ${Date.now()}`, inDays: 25 });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(user.id, baseUrl)]);
    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("button", { name: "Als Helfer*in bewerben" }).click();
    await page.getByRole("button", { name: "Bereits beworben" }).waitFor();
    expect(await page.getByRole("button", { name: "Bereits beworben" }).isDisabled()).toBe(true);
    expect(await page.getByRole("status").textContent()).toContain("Deine Bewerbung muss vor der Eintragung durch einen Administrator geprüft werden");
    expect(await page.getByRole("link", { name: "Anmelden", exact: true }).getAttribute("href")).toBe(`/enroll/${camp.id}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

// Screens' review: a begun event's page said late enrolments are still taken while places are free,
// beside 'Die Veranstaltung hat schon begonnen'.
describe("the page of an event that has begun", () => {
  it("does not promise late enrolments", async () => {
    const begun = createEvent({ title: `Begonnen ${Date.now()}`, inDays: -1, capacity: 10, registrationDeadline: daysFromToday(-5) });
    const upcoming = createEvent({ title: `Bald ${Date.now()}`, inDays: 20, capacity: 10, registrationDeadline: daysFromToday(10) });
    const text = async (id: number) => (await fetch(`${baseUrl}/freizeit/${id}`)).text();
    expect(await text(begun.id)).not.toContain("werden weiterhin angenommen");
    expect(await text(upcoming.id)).toContain("Anmeldungen nach dem Anmeldeschluss werden weiterhin angenommen, solange Plätze frei sind.");
  });
});
