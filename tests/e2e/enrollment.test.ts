import { describe, expect, inject, it } from "vitest";
import { eq } from "drizzle-orm";
import { guardians, participants, registrations } from "../../db/schema";
import { db } from "~/services/db.server";
import { fileBrowser, JS_MODES, openTab, phoneTab, addBox } from "../support/browser";
import { createEvent } from "../support/events";
import { browserSessionCookie, createUser, sessionCookieFor } from "../support/fixtures";
import { waitForMail } from "../support/mail";

const { baseUrl, mailDir } = inject("e2e")!;
const browser = fileBrowser();


describe("enrolment over HTTP", () => {
  it("50 parents submitting at the same moment for 10 places: 10 places, 40 waiting in arrival order, none lost", async () => {
    const camp = createEvent({ title: `Ansturm ${Date.now()}`, capacity: 10 });
    const families = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const user = await createUser({ firstName: `Elternteil${i}` });
        const kid = db
          .insert(participants)
          .values({ userId: user.id, firstName: `Kind${i}`, lastName: "Ansturm", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" })
          .returning()
          .get();
        return { cookie: await sessionCookieFor(user.id), kid };
      }),
    );
    const responses = await Promise.all(
      families.map(({ cookie, kid }, i) =>
        fetch(`${baseUrl}/enroll/${camp.id}`, {
          method: "POST",
          redirect: "manual",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
          body: new URLSearchParams({
            intent: "submit",
            submissionKey: `ansturm-${camp.id}-${i}-abcdefgh`,
            "boxes[0].participant": String(kid.id),
            paymentMethod: "transfer",
            terms: "on",
          }),
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(302));
    const rows = db.select().from(registrations).where(eq(registrations.eventId, camp.id)).orderBy(registrations.id).all();
    expect(rows).toHaveLength(50);
    expect(rows.slice(0, 10).every((r) => r.waitingListPosition === null)).toBe(true);
    expect(rows.slice(10).map((r) => r.waitingListPosition)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

describe.each(JS_MODES)("enrolment $name", ({ javaScriptEnabled }) => {
  it("a parent enrols two children by SEPA, sees the confirmation and the mail, then enrols again with the mandate locked", async () => {
    const parent = await createUser({ firstName: "Petra", lastName: "Paulsen" });
    const existing = db
      .insert(participants)
      .values({ userId: parent.id, firstName: "Lotta", lastName: "Paulsen", street: "Strandweg 3", city: "Eutin", birthDate: "2005-04-01" })
      .returning()
      .get();
    const third = db
      .insert(participants)
      .values({ userId: parent.id, firstName: "Ole", lastName: "Paulsen", street: "Strandweg 3", city: "Eutin", birthDate: "2004-04-01" })
      .returning()
      .get();
    const camp = createEvent({ title: `Segelfreizeit ${Date.now()}`, priceCents: 19900, tshirtSizeRequired: true, inDays: 50 });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);

    await page.goto(`/freizeit/${camp.id}`);
    await page.getByRole("link", { name: "Anmelden", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: `Anmeldeformular: ${camp.title}` }).waitFor();

    // Box 1: the existing child (an adult at the start, so no guardian needed).
    await page.getByLabel("Kind*").selectOption(String(existing.id));
    await page.getByLabel("T-Shirt-Größe*").selectOption("L");
    // Box 2: a new child under 18 with a new guardian.
    const second = await addBox(page, 2);
    // The new box has the focus, with JavaScript too (parents' review: it stayed on the page).
    await page.waitForFunction(() => document.activeElement?.id === "teilnehmer-2");
    // It starts with the saved child no box has chosen (screens' review: 'Neues Kind anlegen').
    expect(await second.getByLabel("Kind*").inputValue()).toBe(String(third.id));
    await second.getByLabel("Kind*").selectOption("neu");
    // Without JavaScript the choice is taken over by a button; with it, at once.
    if (!javaScriptEnabled) await second.getByRole("button", { name: "Auswahl übernehmen" }).first().click();
    await second.getByLabel("Vorname*").first().waitFor();
    await second.getByLabel("Vorname*").first().fill("Finn");
    await second.getByLabel("Nachname*").first().fill("Paulsen");
    await second.getByLabel("Straße und Hausnummer*").fill("Strandweg 3");
    await second.getByLabel("Ort*").fill("Eutin");
    await second.getByLabel("Geburtsdatum*").fill("2016-08-15");
    await second.getByLabel("T-Shirt-Größe*").selectOption("S");
    await second.getByLabel("Erziehungsberechtigte*r (für Kinder unter 18)").selectOption("neu");
    if (!javaScriptEnabled) await second.getByRole("button", { name: "Auswahl übernehmen" }).last().click();
    const guardianFirstName = page.getByRole("group", { name: "Teilnehmer*in 2" }).getByLabel("Vorname*").nth(1);
    await guardianFirstName.waitFor();
    // What was typed before is still there.
    expect(await page.getByRole("group", { name: "Teilnehmer*in 2" }).getByLabel("Vorname*").first().inputValue()).toBe("Finn");
    await guardianFirstName.fill("Petra");
    await page.getByRole("group", { name: "Teilnehmer*in 2" }).getByLabel("Nachname*").nth(1).fill("Paulsen");

    await page.getByLabel("SEPA-Lastschriftmandat", { exact: true }).check();
    // The SEPA section shows only once it is chosen: at once with JavaScript, after 'Weiter' without.
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Weiter", exact: true }).click();
    await page.getByLabel("Vorname Kontoinhaber*in").fill("Petra");
    await page.getByLabel("Nachname Kontoinhaber*in").fill("Paulsen");
    await page.getByLabel("Straße und Hausnummer", { exact: true }).last().fill("Strandweg 3");
    await page.getByLabel("Ort", { exact: true }).last().fill("Eutin");
    await page.getByLabel("Ich erteile das SEPA-Lastschriftmandat.").check();
    await page.getByLabel(/Datenschutzerklärung gelesen und bin mit der Verarbeitung/).check();
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    // A wrong postal code and a wrong IBAN: the summary lists them in the order of the form.
    await page.getByLabel("Postleitzahl").fill("2370");
    await page.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 01");
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.locator("#fehler").waitFor();
    const sepaMessages = await page.locator("#fehler li", { hasText: "SEPA-Lastschriftmandat:" }).allTextContents();
    expect(sepaMessages.length).toBe(2);
    expect(sepaMessages[0]).toMatch(/Postleitzahl|PLZ/i);
    await page.getByLabel("Postleitzahl").fill("23701");
    await page.getByLabel("IBAN").fill("de89 3704 0044 0532 0130 00");
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();

    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();
    const confirmation = await page.getByRole("main").textContent();
    expect(confirmation).toContain("Lotta Paulsen ○ Anmeldung eingegangen – Bestätigung ausstehend");
    expect(confirmation).toContain("Finn Paulsen ○ Anmeldung eingegangen – Bestätigung ausstehend");
    expect(confirmation).toContain("SEPA-Lastschrift");
    expect(await page.locator(".girocode").count()).toBe(0);

    const mail = await waitForMail(mailDir, parent.email, `Anmeldung: ${camp.title}`);
    expect(mail.text).toContain("- Lotta Paulsen: Anmeldung eingegangen – Bestätigung ausstehend");
    expect(mail.text).toContain("- Finn Paulsen: Anmeldung eingegangen – Bestätigung ausstehend");
    expect(db.select().from(guardians).where(eq(guardians.userId, parent.id)).all().map((g) => g.firstName)).toEqual(["Petra"]);

    await page.goto(`/freizeit/${camp.id}`);
    const mine = await page.getByRole("region", { name: "Meine angemeldeten Teilnehmer*innen" }).textContent();
    expect(mine).toContain("Finn Paulsen");
    expect(mine).toContain("Lotta Paulsen");

    await page.goto("/account?tab=teilnehmer");
    for (const name of ["Lotta Paulsen", "Finn Paulsen"]) {
      const section = page.getByRole("region", { name });
      expect(await section.getByRole("link", { name: camp.title }).count()).toBe(1);
      expect(await section.getByRole("link", { name: "Anmeldebestätigung" }).count()).toBe(1);
      expect(await section.textContent()).toContain("○ Anmeldung eingegangen – Bestätigung ausstehend");
    }

    // A second enrolment: the mandate is preselected and the choice locked.
    await page.goto(`/enroll/${camp.id}`);
    expect(await page.getByLabel("SEPA-Lastschriftmandat", { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("SEPA-Lastschriftmandat", { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel("Überweisung").isDisabled()).toBe(true);
    expect(await page.getByText("DE89 3704 0044 0532 0130 00").count()).toBe(1);
    await page.getByLabel("Kind*").selectOption(String(third.id));
    await page.getByLabel("T-Shirt-Größe*").selectOption("XL");
    await page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/).check();
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.getByRole("heading", { level: 1, name: `Anmeldebestätigung: ${camp.title}` }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("Ole Paulsen ○ Anmeldung eingegangen – Bestätigung ausstehend");
    expect(db.select().from(registrations).where(eq(registrations.eventId, camp.id)).all().map((r) => r.paymentMethod)).toEqual(["sepa", "sepa", "sepa"]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("says in the box itself which child goes on the waiting list when places run short", async () => {
    const parent = await createUser();
    const camp = createEvent({ title: `Knapplager ${Date.now()}`, capacity: 1 });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: parent.id, height: 640 });
    await page.goto(`/enroll/${camp.id}`);
    await addBox(page, 2);
    // The screens' review: the note was only at the page's top, far above the new box.
    const second = "Teilnehmer*in 2 kommt auf die Warteliste: Es ist nur noch 1 Platz frei, für Teilnehmer*in 1.";
    expect(await page.locator("#teilnehmer-2").textContent()).toContain(second);
    expect(await page.locator("#teilnehmer-1").textContent()).not.toContain("Warteliste");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the rules' messages next to the fields and keeps the entries", async () => {
    const parent = await createUser();
    const camp = createEvent({ title: `Regellager ${Date.now()}`, inDays: 30 });
    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(parent.id, baseUrl)]);
    await page.goto(`/enroll/${camp.id}`);
    await page.getByLabel("Vorname*").waitFor();
    await page.getByLabel("Vorname*").fill("Nele");
    await page.getByLabel("Geburtsdatum*").fill("2014-01-01");
    await page.getByRole("button", { name: "Verbindlich Anmelden" }).click();
    await page.getByText("Mindestens ein Feld ist nicht valide").waitFor();
    expect(await page.getByLabel("Vorname*").inputValue()).toBe("Nele");
    const terms = page.getByLabel(/Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere/);
    expect(await terms.getAttribute("aria-describedby")).toBe("terms-error");
    expect(await page.locator("#terms-error").textContent()).toContain("Bitte bestätige die Teilnahmebedingungen");
    expect(await page.locator("#paymentMethod-error").textContent()).toBe("Bitte wähle eine Zahlungsart.");
    expect(await page.locator("#fehler").getByRole("link", { name: "Bitte wähle eine Zahlungsart." }).getAttribute("href")).toBe("#paymentMethod");
    expect(db.select().from(registrations).where(eq(registrations.eventId, camp.id)).all()).toHaveLength(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
