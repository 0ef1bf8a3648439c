// The leaders' screens in a real browser on a 360 px phone, with and without JavaScript (issue 10):
// a lead person finds the list from the event page, filters and searches it, opens a detail page,
// writes and edits a comment; accepts one child, rejects another with a reason (the parent gets
// the reason by mail), confirms a payment and a SEPA mandate's payments in bulk.
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { registrations } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, JS_MODES, openTab, phoneTab } from "../support/browser";
import { createEvent } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { quickUser, register } from "../support/lists-fixtures";
import { waitForMail } from "../support/mail";
import { mandateFor } from "../support/review-fixtures";

const { baseUrl, mailDir } = inject("e2e")!;
const browser = fileBrowser();


/** Nothing on the page is wider than the phone: the table scrolls in its own box. */
async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

let families = 0;
/** An account of its own for every child: lists-fixtures' default addresses repeat across browser test files run in one process. */
function child(firstName: string, lastName: string) {
  return { child: { firstName, lastName }, userId: family().id };
}
function family(values: { firstName?: string } = {}) {
  return quickUser({ ...values, email: `review-${Date.now()}-${++families}@example.org` });
}

describe.each(JS_MODES)("participant list $name", ({ javaScriptEnabled }) => {
  it("a lead person filters the list, opens a detail page, writes a comment and edits it", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leitung" });
    const camp = createEvent({ title: `Pfingstlager ${Date.now()}`, ownerIds: [lead.id] });
    register(camp.id, { status: "open", ...child("Mila", "Sommer") });
    register(camp.id, { status: "open", ...child("Jonas", "Winter") });
    register(camp.id, { status: "accepted", paid: true, ...child("Emma", "Sommer") });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });

    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("link", { name: "Teilnehmer*innen-Liste" }).click();
    await page.getByRole("heading", { level: 1, name: `Teilnehmer*innen-Liste ${camp.title}` }).waitFor();
    expect(await page.getByRole("navigation", { name: "Listen der Veranstaltung" }).getByRole("link", { name: "Mitarbeiter*innen-Liste" }).getAttribute("href")).toBe(`/freizeit/helper/${camp.id}`);
    const table = page.getByRole("table");
    expect(await table.getByRole("row").count()).toBe(4);
    // The state in words beside the colour.
    await table.getByRole("row", { name: /Sommer, Emma/ }).getByText("Bestätigt").waitFor();
    await fitsThePhone(page);

    await page.getByLabel("Anzeigen").selectOption("offen");
    await page.getByLabel("Name oder Verwendungszweck").fill("sommer");
    await page.getByRole("button", { name: "Filtern" }).click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "offen" && url.searchParams.get("suche") === "sommer");
    await table.getByRole("row").nth(1).getByRole("link", { name: "Sommer, Mila" }).waitFor();
    expect(await table.getByRole("row").count()).toBe(2);
    // A bank statement's line with another event's reference: said so at the field.
    await page.getByLabel("Name oder Verwendungszweck").fill(`Beitrag Sommerlager LF ${camp.id + 1000} A 7 Mila`);
    await page.getByRole("button", { name: "Filtern" }).click();
    await page.getByText(`Der Verwendungszweck LF-${camp.id + 1000}-A7 gehört zu einer anderen Veranstaltung.`).waitFor();
    await page.goto(`/freizeit/participants/${camp.id}?filter=offen&suche=sommer`);

    await table.getByRole("link", { name: "Sommer, Mila" }).click();
    await page.getByRole("heading", { level: 1, name: "Mila Sommer" }).waitFor();
    await fitsThePhone(page);

    const comments = page.getByRole("region", { name: "Kommentarverlauf" });
    await comments.getByLabel("Neuer Kommentar*").fill(" x ");
    await comments.getByRole("button", { name: "Kommentar hinzufügen" }).click();
    await comments.getByText("Bitte geben sie ein vollständiges Kommentar an").waitFor();
    await comments.getByLabel("Neuer Kommentar*").fill("Hat Heuschnupfen, Tabletten im Rucksack.");
    await comments.getByRole("button", { name: "Kommentar hinzufügen" }).click();
    await page.getByRole("status").getByText("Kommentar gespeichert").waitFor();
    await comments.getByText("Hat Heuschnupfen, Tabletten im Rucksack.").waitFor();
    await comments.getByText("Lea Leitung").waitFor();

    await comments.getByRole("link", { name: /bearbeiten$/ }).click();
    await comments.getByLabel("Kommentar bearbeiten*").fill("Hat Heuschnupfen, Tabletten im Rucksack (morgens eine).");
    await comments.getByRole("button", { name: "Speichern" }).click();
    await comments.getByText("Hat Heuschnupfen, Tabletten im Rucksack (morgens eine).").waitFor();
    expect(await comments.getByLabel("Kommentar bearbeiten*").count()).toBe(0);

    // Back to the list as it was opened from, after the page's own forms too (leaders' review: it
    // led to page 1 of the whole list), at the child's row.
    await page.getByRole("link", { name: "Zurück", exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/freizeit/participants/${camp.id}` && url.searchParams.get("filter") === "offen" && url.searchParams.get("suche") === "sommer");
    expect(new URL(page.url()).hash).toMatch(/^#anmeldung-\d+$/);
    await table.getByRole("link", { name: "Sommer, Mila" }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an accepted helper sees the list without decisions; the event page offers no e-mail button", async () => {
    const helper = await createUser();
    const camp = createEvent({ title: `Teamlager ${Date.now()}`, helpers: [[helper.id, "accepted"]] });
    register(camp.id, { status: "open", ...child("Tom", "Team") });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: helper.id });
    await page.goto(`/freizeit/${camp.id}`);
    expect(await page.getByRole("link", { name: "E-Mail an alle" }).count()).toBe(0);
    await page.getByRole("link", { name: "Teilnehmer*innen-Liste" }).click();
    await page.getByRole("link", { name: "Team, Tom" }).waitFor();
    expect(await page.getByRole("link", { name: /Annehmen/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /annehmen/i }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /Ablehnen/ }).count()).toBe(0);
    // No 'Aktionen' column that would stay empty (leaders' review).
    expect(await page.getByRole("columnheader", { name: "Aktionen" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe.each(JS_MODES)("decisions $name", ({ javaScriptEnabled }) => {
  // Screens' review: after a decision far down the list, the message at the top of the screen
  // covered the very row the page opened at, so the next row looked like the one changed.
  it.each([1280, 360])("after a decision the changed row is in view below the message (%i pixels wide)", async (width) => {
    const lead = await createUser();
    const camp = createEvent({ title: `Langlager ${Date.now()}`, ownerIds: [lead.id] });
    for (let i = 0; i < 24; i++) register(camp.id, { status: "accepted", ...child(`Kind${String(i).padStart(2, "0")}`, "Lang") });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });
    await page.setViewportSize({ width, height: 740 });
    await page.goto(`/freizeit/participants/${camp.id}`);
    await page.getByRole("button", { name: "Bezahlung bestätigen: Kind15 Lang" }).click();
    await page.getByRole("status").getByText("Bezahlung bestätigt").waitFor();
    await page.waitForTimeout(300);
    const place = await page.evaluate(() => {
      const message = document.querySelector(".flash-region")!.getBoundingClientRect();
      const row = document.getElementById(location.hash.slice(1) || "-")?.getBoundingClientRect();
      return { hash: location.hash !== "", rowTop: Math.round(row?.top ?? -1), messageBottom: Math.round(message.bottom), height: window.innerHeight };
    });
    expect(place.hash).toBe(true);
    expect(place.rowTop).toBeGreaterThanOrEqual(place.messageBottom);
    expect(place.rowTop).toBeLessThan(place.height - 40);
    // Screens' review: without JavaScript the message (which stays at the top) hid the element
    // the keyboard had moved to, 8 times in 20 steps. Whatever takes the focus keeps clear of it.
    const hidden: string[] = [];
    for (let step = 0; step < 30; step++) {
      await page.keyboard.press(step < 20 ? "Tab" : "Shift+Tab");
      const focus = await page.evaluate(() => {
        const message = document.querySelector(".flash-region")!.getBoundingClientRect();
        const active = document.activeElement;
        if (!active || active === document.body || active.closest(".flash-region")) return null;
        const box = active.getBoundingClientRect();
        return box.top < message.bottom && box.bottom > message.top ? (active.getAttribute("aria-label") ?? active.textContent ?? "").trim() : null;
      });
      if (focus !== null) hidden.push(focus);
    }
    expect(hidden).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("accept, accept several at once, reject with a reason (mailed to the parent), confirm a payment and a SEPA mandate in bulk", async () => {
    const lead = await createUser({ firstName: "Lars", lastName: "Leitung" });
    const camp = createEvent({ title: `Herbstfreizeit ${Date.now()}`, ownerIds: [lead.id] });
    const rejectedParent = family({ firstName: "Rosa" });
    const acceptedParent = family({ firstName: "Alma" });
    register(camp.id, { status: "open", ...child("Anton", "Ja"), userId: acceptedParent.id });
    register(camp.id, { status: "open", ...child("Nina", "Nein"), userId: rejectedParent.id });
    register(camp.id, { status: "accepted", ...child("Paul", "Zahlt") });
    register(camp.id, { status: "open", ...child("Bea", "Bulk") });
    register(camp.id, { status: "open", ...child("Bo", "Bulk") });
    const sepaFamily = family();
    const mandate = mandateFor(camp.id, sepaFamily.id, { firstName: "Sabine", lastName: "Sepa" });
    for (const name of ["Lena", "Lukas"]) {
      const r = register(camp.id, { status: "accepted", answers: { paymentMethod: "sepa" }, ...child(name, "Sepa"), userId: sepaFamily.id });
      db.update(registrations).set({ sepaMandateId: mandate.id }).where(eq(registrations.id, r.registration.id)).run();
    }
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });
    await page.goto(`/freizeit/participants/${camp.id}`);
    const table = page.getByRole("table");

    // Accepting asks first, with an optional note to the parents (DECISIONS.md).
    await page.getByRole("link", { name: "Annehmen: Anton Ja" }).click();
    const accepting = page.getByRole("dialog", { name: "Anmeldung annehmen" });
    await accepting.getByLabel("Notiz an die Eltern (optional)").fill("Bitte den Schlafsack nicht vergessen.");
    await accepting.getByRole("button", { name: "Annehmen", exact: true }).click();
    await page.getByRole("status").getByText("Anmeldung bestätigt").waitFor();
    await table.getByRole("row", { name: /Ja, Anton/ }).getByText("Bestätigt").waitFor();
    const accepted = await waitForMail(mailDir, acceptedParent.email, /^Anmeldung bestätigt: Anton Ja/);
    expect(accepted.text).toContain("Notiz der Leitung: Bitte den Schlafsack nicht vergessen.");

    // Several at once: the row checkboxes belong to the form above the table.
    await page.getByRole("checkbox", { name: "Bea Bulk auswählen" }).check();
    await page.getByRole("checkbox", { name: "Bo Bulk auswählen" }).check();
    await page.getByRole("button", { name: "Ausgewählte annehmen" }).click();
    // It asks first, naming the children, and takes a note as accepting one does.
    const many = page.getByRole("dialog", { name: "Anmeldungen annehmen" });
    await many.getByRole("listitem").filter({ hasText: "Bea Bulk" }).waitFor();
    await many.getByRole("listitem").filter({ hasText: "Bo Bulk" }).waitFor();
    await many.getByLabel("Notiz an die Eltern (optional)").fill("Wir freuen uns auf euch.");
    await many.getByRole("button", { name: "2 annehmen" }).click();
    await page.getByRole("status").getByText("Anmeldungen bestätigt", { exact: true }).waitFor();
    await table.getByRole("row", { name: /Bulk, Bea/ }).getByText("Bestätigt").waitFor();
    await table.getByRole("row", { name: /Bulk, Bo/ }).getByText("Bestätigt").waitFor();

    await page.getByRole("link", { name: "Ablehnen: Nina Nein" }).click();
    const dialog = page.getByRole("dialog", { name: "Anmeldung ablehnen" });
    // Blanks pass the browser's 'required' but not the server.
    await dialog.getByLabel("Begründung*").fill("   ");
    await dialog.getByRole("button", { name: "Ablehnen" }).click();
    await dialog.getByText("Begründung ist erforderlich").waitFor();
    expect(await dialog.getByLabel("Begründung*").getAttribute("aria-invalid")).toBe("true");
    // The field with its message takes the focus, so a screen reader says it (attack probe: it
    // stayed on the button).
    if (javaScriptEnabled) expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("reason");
    await dialog.getByLabel("Begründung*").fill("Leider ist die Altersgrenze überschritten.");
    await dialog.getByRole("button", { name: "Ablehnen" }).click();
    await page.getByRole("status").getByText("Anmeldung abgelehnt").waitFor();
    await page.getByRole("region", { name: "Abgelehnte Teilnehmer*innen" }).getByRole("link", { name: "Nein, Nina" }).waitFor();
    const mail = await waitForMail(mailDir, rejectedParent.email, /^Anmeldung abgelehnt: Nina Nein/);
    expect(mail.text).toContain("Leider ist die Altersgrenze überschritten.");

    await page.getByRole("button", { name: "Bezahlung bestätigen: Paul Zahlt" }).click();
    await page.getByRole("status").getByText("Bezahlung bestätigt").waitFor();
    await table.getByRole("row", { name: /Zahlt, Paul/ }).getByText("Bezahlt").waitFor();

    await page.getByRole("region", { name: "Offene SEPA-Lastschriften" }).getByRole("link", { name: "Sabine Sepa" }).click();
    await page.getByRole("heading", { level: 1, name: "SEPA-Detailseite Sabine Sepa" }).waitFor();
    await page.getByText("DE89 3704 0044 0532 0130 00").waitFor();
    await fitsThePhone(page);
    await page.getByRole("button", { name: "Bezahlung bestätigen" }).click();
    // The button goes once every child of the mandate is paid.
    await page.getByRole("button", { name: "Bezahlung bestätigen" }).waitFor({ state: "detached" });
    await page.getByRole("status").getByText("Bezahlung bestätigt").waitFor();
    expect(await page.getByRole("region", { name: "Angemeldete Teilnehmer*innen" }).getByRole("listitem").filter({ hasText: "Bezahlt" }).count()).toBe(2);
    await page.getByRole("link", { name: "Zurück zur Teilnehmer*innen-Liste" }).click();
    await page.getByRole("heading", { level: 1, name: `Teilnehmer*innen-Liste ${camp.title}` }).waitFor();
    expect(await page.getByRole("region", { name: "Offene SEPA-Lastschriften" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the leaders' pages on a 320 px screen", () => {
  it("one h1, headings in order, every field labelled, nothing wider than the screen", async () => {
    const lead = await createUser();
    const camp = createEvent({ title: `Schmales Lager ${Date.now()}`, ownerIds: [lead.id], capacity: 1 });
    const parent = quickUser({ email: `sehr.lange.adresse.ohne.umbruch.${Date.now()}@beispiel-familie.example.org` });
    const mandate = mandateFor(camp.id, parent.id, { firstName: "Maximiliane", lastName: "Mustermann-Lüdenscheid" });
    const first = register(camp.id, { status: "open", answers: { paymentMethod: "sepa", specialNeeds: "x".repeat(80) }, ...child("Kunigunde", "Mustermann-Lüdenscheid"), userId: parent.id });
    db.update(registrations).set({ sepaMandateId: mandate.id }).where(eq(registrations.id, first.registration.id)).run();
    register(camp.id, { status: "open", waitingListPosition: 1, ...child("Wartende", "Person") });
    register(camp.id, { status: "rejected", ...child("Abgelehnte", "Person") });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled: true, baseURL: baseUrl });
    await page.setViewportSize({ width: 320, height: 640 });
    await context.addCookies([await browserSessionCookie(lead.id, baseUrl)]);
    for (const path of [
      `/freizeit/participants/${camp.id}`,
      `/freizeit/participants/${camp.id}?entscheiden=reject&anmeldung=${first.registration.id}`,
      `/freizeit/participants/participant-details/${first.registration.id}`,
      `/freizeit/${camp.id}/sepa/${mandate.id}`,
    ]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      const report = await page.evaluate(() => {
        const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => Number(h.tagName[1]));
        const unlabelled = [...document.querySelectorAll("input, select, textarea")]
          .filter((el) => (el as HTMLInputElement).type !== "hidden")
          .filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute("aria-label"))
          .map((el) => (el as HTMLInputElement).name);
        return { h1: levels.filter((l) => l === 1).length, first: levels[0], skipped: levels.filter((l, i) => i > 0 && l > levels[i - 1] + 1), unlabelled, width: document.documentElement.scrollWidth };
      });
      expect(report, path).toEqual({ h1: 1, first: 1, skipped: [], unlabelled: [], width: 320 });
    }
    // The rejection frees the one place: the step says who is offered it (leaders' review).
    await page.goto(`/freizeit/participants/${camp.id}?entscheiden=reject&anmeldung=${first.registration.id}`);
    await page.getByText("Der Platz wird dann Wartende Person angeboten, dem ersten Kind auf der Warteliste. Die Familie bekommt dazu eine E-Mail.").waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
