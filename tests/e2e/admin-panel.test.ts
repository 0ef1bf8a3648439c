// The admin panel in a browser at 360 px, with JavaScript and without: roles, deactivation, the
// three legal PDFs (linked in the footer), the event badge, the protocol.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { participants, registrations } from "../../db/schema";
import { recordAudit } from "~/models/audit.server";
import { db } from "~/services/db.server";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { createEvent } from "../support/events";
import { createRegistration } from "../support/registrations";
import { browserSessionCookie, createUser } from "../support/fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();
const dir = mkdtempSync(path.join(tmpdir(), "lf-e2e-legal-"));
const pdfFile = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, `%PDF-1.4\n% ${text}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
  return file;
};
const notPdf = path.join(dir, "bild.png");

beforeAll(async () => {
  writeFileSync(notPdf, Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));
});

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

function userBar(page: Page, name: string) {
  return page.getByRole("listitem", { name });
}

async function search(page: Page, text: string) {
  await page.getByLabel("Name oder E-Mail").fill(text);
  await page.getByRole("button", { name: "Suchen" }).click();
  await page.waitForURL((url) => url.searchParams.get("q") === text);
}

describe.each(JS_MODES)("admin panel $name", ({ javaScriptEnabled }) => {
  it("an admin finds open decisions, grants admin, deactivates and reactivates, uploads the legal PDFs and reads the protocol", async () => {
    const stamp = `${javaScriptEnabled ? "J" : "N"}${Date.now()}`;
    const admin = await createUser({ role: "admin", firstName: "Ada", lastName: `Admin${stamp}` });
    const greta = await createUser({ firstName: "Greta", lastName: `Gruen${stamp}` });
    const dora = await createUser({ firstName: "Dora", lastName: `Dunkel${stamp}` });
    const parent = await createUser();
    const camp = createEvent({ title: `Badgelager ${stamp}`, inDays: 3 });
    const child = db.insert(participants).values({ userId: parent.id, firstName: "Kim", lastName: "Kind", street: "Weg 1", city: "Kiel", birthDate: "2015-01-01" }).returning().get();
    db.insert(registrations).values({ eventId: camp.id, participantId: child.id, userId: parent.id, paymentMethod: "transfer", amountCents: 5000 }).run();

    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await page.setViewportSize({ width: 360, height: 780 });
    await context.addCookies([await browserSessionCookie(admin.id, baseUrl)]);
    await page.goto("/");
    await page.getByRole("link", { name: "Admin Panel" }).click();
    await page.getByRole("heading", { level: 1, name: "Admin Panel" }).waitFor();
    expect(await page.getByRole("link", { name: "Veranstaltungsverwaltung" }).getAttribute("aria-current")).toBe("page");

    // The event with open decisions, by its badge: one open registration, its payment open.
    const card = page.getByRole("listitem").filter({ hasText: camp.title });
    const edit = card.getByRole("link", { name: /^Bearbeiten/ });
    expect(await edit.locator(".badge").textContent()).toBe("2 offen");
    // What it counts, in words a volunteer sees (screens' review: only screen readers were told).
    const legend = page.getByText("„offen“ an „Bearbeiten“ zählt die offenen Anmeldungen, Mitarbeiter*innen-Anmeldungen und Zahlungen der Veranstaltung.");
    expect(await legend.isVisible()).toBe(true);
    expect(await edit.getAttribute("aria-label")).toBeNull();
    expect(await edit.textContent()).toBe("Bearbeiten2 offen (1 offene Anmeldung, 1 offene Zahlung)");
    expect(await edit.getAttribute("href")).toBe(`/freizeit/participants/${camp.id}`);
    await noSidewaysScroll(page);

    // Grant admin.
    await page.getByRole("link", { name: "Benutzerverwaltung" }).click();
    await page.getByRole("heading", { name: "Nutzende" }).waitFor();
    await search(page, `Gruen${stamp}`);
    // Asked first: what the rights mean; 'Abbrechen' changes nothing.
    await userBar(page, `Greta Gruen${stamp}`).getByRole("link", { name: `Adminrechte geben: Greta Gruen${stamp}` }).click();
    let grant = page.getByRole("dialog", { name: "Adminrechte geben" });
    expect(await grant.textContent()).toContain(`Greta Gruen${stamp} sieht und ändert danach alle Veranstaltungen`);
    await grant.getByRole("link", { name: "Abbrechen" }).click();
    await grant.waitFor({ state: "detached" });
    expect(await page.getByRole("region", { name: "Nutzende" }).getByRole("listitem", { name: `Greta Gruen${stamp}` }).isVisible()).toBe(true);
    await userBar(page, `Greta Gruen${stamp}`).getByRole("link", { name: `Adminrechte geben: Greta Gruen${stamp}` }).click();
    grant = page.getByRole("dialog", { name: "Adminrechte geben" });
    await grant.getByRole("button", { name: "Adminrechte geben" }).click();
    await page.getByText("Adminrechte gegeben").waitFor();
    const admins = page.getByRole("region", { name: "Admin", exact: true });
    await admins.getByRole("listitem", { name: `Greta Gruen${stamp}` }).waitFor();
    // That it is the search that found no one else; not the spec's "Es gibt keine Nutzenden",
    // which is not true of the list (leaders' review).
    expect(await page.getByText("Es gibt keine Nutzenden").count()).toBe(0);
    expect(await page.getByRole("region", { name: "Nutzende" }).getByText(`Die Suche nach „Gruen${stamp}“ findet hier niemanden.`).isVisible()).toBe(true);
    expect(await userBar(page, `Greta Gruen${stamp}`).getByRole("link", { name: `Adminrechte entziehen: Greta Gruen${stamp}` }).isVisible()).toBe(true);
    // The step says what stays: a lead person keeps their events (leaders' review).
    await userBar(page, `Greta Gruen${stamp}`).getByRole("link", { name: `Adminrechte entziehen: Greta Gruen${stamp}` }).click();
    const revoke = page.getByRole("dialog", { name: "Adminrechte entziehen" });
    expect(await revoke.textContent()).toContain(`Wo Greta Gruen${stamp} Leitung oder Helfer*in ist, bleiben diese Rechte, auch an den Daten der Familien`);
    await revoke.getByRole("link", { name: "Abbrechen" }).click();
    await revoke.waitFor({ state: "detached" });

    // Deactivate and reactivate.
    await search(page, `Dunkel${stamp}`);
    const bar = userBar(page, `Dora Dunkel${stamp}`);
    await bar.getByText("Aktiv", { exact: true }).waitFor(); // visible, once the search's page is there
    // Asked first (the person is signed out at once); 'Abbrechen' changes nothing.
    await bar.getByRole("link", { name: /^Deaktivieren: Dora/ }).click();
    let step = page.getByRole("dialog", { name: "Konto deaktivieren" });
    expect(await step.textContent()).toContain("wird sofort abgemeldet");
    await step.getByRole("link", { name: "Abbrechen" }).click();
    await step.waitFor({ state: "detached" });
    await bar.getByText("Aktiv", { exact: true }).waitFor(); // visible, once the search's page is there
    await bar.getByRole("link", { name: /^Deaktivieren: Dora/ }).click();
    step = page.getByRole("dialog", { name: "Konto deaktivieren" });
    await step.getByRole("button", { name: "Deaktivieren" }).click();
    await page.getByText("Konto deaktiviert").waitFor();
    await bar.getByText("Inaktiv", { exact: true }).waitFor();
    await bar.getByRole("button", { name: `Reaktivieren: Dora Dunkel${stamp}`, exact: true }).click();
    await page.getByText("Konto reaktiviert").waitFor();
    await bar.getByText("Aktiv", { exact: true }).waitFor();
    // Named with the person, as the other buttons of the row.
    expect(await bar.getByRole("link", { name: `Details: Dora Dunkel${stamp}`, exact: true }).getAttribute("href")).toBe(`/account/${dora.id}`);
    await noSidewaysScroll(page);

    // The three PDFs.
    const legal = page.getByRole("region", { name: "Dokumente" });
    if (javaScriptEnabled) {
      // The hidden file input's keyboard focus shows on its label.
      await legal.getByLabel("Datei Hochladen: Datenschutzerklärung").focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      const outline = await legal.locator("label", { hasText: "Datei Hochladen" }).first().evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline).toBe("solid");
      // Anything but a PDF is silently left out of the choice.
      await legal.getByLabel("Datei Hochladen: Datenschutzerklärung").setInputFiles(notPdf);
      expect(await legal.getByText("Dateiname").count()).toBe(3);
    } else {
      // The server refuses it at its field, and the answer opens at the form (leaders' review:
      // the message stood 3,750 px below the top of the page at 360 px).
      await legal.getByLabel("Datei Hochladen: Datenschutzerklärung").setInputFiles(notPdf);
      await legal.getByRole("button", { name: "Speichern" }).click();
      const message = legal.getByText("Bitte lade eine PDF-Datei hoch.");
      await message.waitFor();
      expect(new URL(page.url()).hash).toBe("#admin-legal");
      expect(await message.evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight && el.getBoundingClientRect().top >= 0)).toBe(true);
    }
    await legal.getByLabel("Datei Hochladen: Datenschutzerklärung").setInputFiles(pdfFile(`Datenschutz-${stamp}.pdf`, `Datenschutz ${stamp}`));
    await legal.getByLabel("Datei Hochladen: Teilnahmebedingungen").setInputFiles(pdfFile(`Teilnahme-${stamp}.pdf`, `Teilnahme ${stamp}`));
    await legal.getByLabel("Datei Hochladen: Allgemeine Geschäftsbedingungen").setInputFiles(pdfFile(`AGB-${stamp}.pdf`, `AGB ${stamp}`));
    if (javaScriptEnabled) expect(await legal.getByText(`Teilnahme-${stamp}.pdf`).isVisible()).toBe(true);
    await legal.getByRole("button", { name: "Speichern" }).click();
    await page.getByText("Upload erfolgt").waitFor();
    await page.getByRole("region", { name: "Dokumente" }).getByText(`(AGB-${stamp}.pdf)`).waitFor();
    // Saved: the slots are empty again, nothing looks as if it still waited to be saved.
    if (javaScriptEnabled) expect(await legal.getByText("Dateiname").count()).toBe(3);
    for (const label of ["Datenschutzerklärung", "Teilnahmebedingungen", "Allgemeine Geschäftsbedingungen"]) {
      expect(await legal.getByLabel(`Datei Hochladen: ${label}`).evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
    }
    const footer = page.getByRole("contentinfo");
    expect(await footer.getByRole("link", { name: "Datenschutz" }).getAttribute("href")).toBe("/legal/datenschutz.pdf");
    expect(await footer.getByRole("link", { name: "Teilnahmebedingungen" }).getAttribute("href")).toBe("/legal/teilnahmebedingungen.pdf");
    expect(await footer.getByRole("link", { name: "AGB" }).getAttribute("href")).toBe("/legal/agb.pdf");
    const served = await page.request.get("/legal/teilnahmebedingungen.pdf");
    expect(served.headers()["content-type"]).toBe("application/pdf");
    expect((await served.body()).toString("latin1")).toContain(`Teilnahme ${stamp}`);
    // The enrolment form links them where parents accept them (terms checkbox, SEPA privacy consent).
    await page.goto(`/enroll/${camp.id}`);
    const form = page.getByRole("main");
    await form.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).waitFor();
    const hrefs = async (text: string) => form.locator("a", { hasText: text }).evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(await hrefs("Teilnahmebedingungen")).toEqual(["/legal/teilnahmebedingungen.pdf"]);
    const privacy = await hrefs("Datenschutzerklärung");
    expect(privacy.length).toBe(javaScriptEnabled ? 2 : 1); // without JavaScript the SEPA section shows once SEPA is chosen
    expect(new Set(privacy)).toEqual(new Set(["/legal/datenschutz.pdf"]));
    await page.goto("/gott");

    // The protocol, newest first, by kind.
    await page.getByRole("link", { name: "Protokoll" }).click();
    await page.getByRole("heading", { level: 2, name: "Protokoll" }).waitFor();
    const rows = page.locator("table.admin-protocol tbody tr");
    const mine = rows.filter({ hasText: `Ada Admin${stamp}` });
    const texts = await mine.locator("td:nth-child(3)").allTextContents();
    expect(texts.slice(0, 6)).toEqual([
      `Dokument hochgeladen: Allgemeine Geschäftsbedingungen (Version ${texts[0].match(/Version (\d+)/)![1]}): AGB-${stamp}.pdf`,
      expect.stringMatching(/^Dokument hochgeladen: Teilnahmebedingungen/),
      expect.stringMatching(/^Dokument hochgeladen: Datenschutzerklärung/),
      `Konto reaktiviert: Dora Dunkel${stamp}`,
      `Konto deaktiviert: Dora Dunkel${stamp}`,
      `Adminrechte gegeben: Greta Gruen${stamp}`,
    ]);
    await page.getByLabel("Art", { exact: true }).selectOption({ label: "Benutzer*innen" });
    await page.getByRole("button", { name: "Anzeigen" }).click();
    await page.waitForURL((url) => url.searchParams.get("art") === "user");
    // With JavaScript the address changes before the list: poll until it has.
    await expect.poll(() => rows.filter({ hasText: "Dokument hochgeladen" }).count()).toBe(0);
    expect(await rows.filter({ hasText: `Konto deaktiviert: Dora Dunkel${stamp}` }).count()).toBe(1);
    await noSidewaysScroll(page);
    // What the app does by itself (a place offered to the waiting list) is by 'System', not by a deleted account.
    recordAudit(db, { actorId: null, action: "registration.offered", entityType: "registration", entityId: 999_999, details: { eventId: 1 } });
    await page.getByLabel("Art", { exact: true }).selectOption({ label: "Anmeldungen" });
    await page.getByRole("button", { name: "Anzeigen" }).click();
    await page.waitForURL((url) => url.searchParams.get("art") === "registration");
    await expect.poll(() => rows.first().locator("td:nth-child(2)").textContent()).toBe("System");

    // 'Jetzt ausführen' of the data minimisation asks first; 'Abbrechen' deletes nothing.
    const ended = createEvent({ title: `Vorbei ${stamp}`, inDays: -90 });
    const due = createRegistration(ended.id, admin.id);
    db.update(registrations).set({ specialNeeds: "Heuschnupfen" }).where(eq(registrations.id, due.id)).run();
    await page.goto("/gott?tab=protokoll");
    const retention = (await page.getByRole("region", { name: "Datensparsamkeit" }).textContent())!.replace(/\s+/g, " ");
    expect(retention).toContain("Einmal am Tag (und bei jedem Start der App) werden Gesundheitsangaben");
    expect(retention).toMatch(/Zuletzt gelaufen: \d{2}\.\d{2}\.\d{2}, \d{2}:\d{2} Uhr\.|Noch nicht gelaufen\./);
    await page.getByRole("link", { name: "Jetzt ausführen" }).click();
    const ask = page.getByRole("dialog", { name: "Datensparsamkeit jetzt ausführen" });
    expect(await ask.textContent()).toContain("Das lässt sich nicht rückgängig machen.");
    await ask.getByRole("link", { name: "Abbrechen" }).click();
    await ask.waitFor({ state: "detached" });
    expect(db.select().from(registrations).where(eq(registrations.id, due.id)).get()!.specialNeeds).toBe("Heuschnupfen");
    expect(problems).toEqual([]);
    await context.close();
    expect(greta.id).toBeGreaterThan(0);
  });
});
