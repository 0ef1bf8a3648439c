// A lead person matches the bank statement on a phone, with and without JavaScript (DECISIONS.md,
// one enrolment, one payment): pastes a transfer's line into the participant list's search, sees
// the enrolment's children with their amounts and what is open, confirms the whole transfer with
// one button, and the family gets one mail for both children once the ten minutes are over.
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { enrolments } from "../../db/schema";
import { enrolmentReference } from "~/lib/transfer";
import { PAYMENT_MAIL_DELAY_MS, sendPaymentMails } from "~/models/payment-mails.server";
import { db } from "~/services/db.server";
import { fileBrowser, JS_MODES, phoneTab } from "../support/browser";
import { createEvent } from "../support/events";
import { createUser } from "../support/fixtures";
import { quickUser, register } from "../support/lists-fixtures";
import { waitForMail } from "../support/mail";
import { registration } from "../support/registrations";

const { baseUrl, mailDir } = inject("e2e")!;
const browser = fileBrowser();

/** An enrolment of the parent for the camp, with its reference, and its children at these amounts. */
function enrolmentOf(campId: number, parentId: number, children: [string, number][]) {
  const row = db.insert(enrolments).values({ eventId: campId, userId: parentId, submissionKey: `e2e-${Math.random()}`, reference: `tmp-${Math.random()}`, paymentMethod: "transfer" }).returning().get();
  const reference = enrolmentReference(campId, row.id);
  db.update(enrolments).set({ reference }).where(eq(enrolments.id, row.id)).run();
  const ids = children.map(
    ([firstName, amountCents]) => register(campId, { userId: parentId, status: "accepted", child: { firstName, lastName: "Muster" }, answers: { enrolmentId: row.id, amountCents } }).registration.id,
  );
  return { reference, ids };
}

describe.each(JS_MODES)("the payment of an enrolment $name", ({ javaScriptEnabled }) => {
  it("a lead person finds the transfer by its reference and confirms it for both children; one mail follows", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leitung" });
    const camp = createEvent({ title: `Herbstfreizeit ${Date.now()}`, ownerIds: [lead.id] });
    const parent = quickUser({ firstName: "Petra", lastName: "Muster", email: `zahlung-${Date.now()}-${javaScriptEnabled}@example.org` });
    const enrolment = db.insert(enrolments).values({ eventId: camp.id, userId: parent.id, submissionKey: `e2e-${Date.now()}`, reference: `tmp-${Date.now()}`, paymentMethod: "transfer" }).returning().get();
    const reference = enrolmentReference(camp.id, enrolment.id);
    db.update(enrolments).set({ reference }).where(eq(enrolments.id, enrolment.id)).run();
    const siblings = (["Anna", "Ben"] as const).map(
      (firstName, i) =>
        register(camp.id, { userId: parent.id, status: i === 0 ? "accepted" : "open", child: { firstName, lastName: "Muster" }, answers: { enrolmentId: enrolment.id, amountCents: 20000 - i * 2000 } }).registration.id,
    );
    // A rejected sister: named in the panel and in the list of the rejected, paying nothing.
    register(camp.id, { userId: parent.id, status: "rejected", child: { firstName: "Clara", lastName: "Muster" }, answers: { enrolmentId: enrolment.id } });
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });

    await page.goto(`/freizeit/participants/${camp.id}`);
    // The line as the bank prints it: spaced, in small letters, with the payer's words around it.
    await page.getByLabel("Name oder Verwendungszweck").fill(`SEPA-Gutschrift ${reference.toLowerCase().replaceAll("-", " ")} Petra Muster`);
    await page.getByRole("button", { name: "Filtern" }).click();
    const panel = page.getByRole("region", { name: `Zahlung zur Anmeldung ${reference}` });
    await panel.getByText("Angemeldet von Petra Muster, per Überweisung.").waitFor();
    await panel.getByRole("listitem").filter({ hasText: "Anna Muster: 200,00" }).getByText("Zahlung ausstehend").waitFor();
    await panel.getByRole("listitem").filter({ hasText: "Ben Muster: 180,00" }).waitFor();
    await panel.getByText("Betrag der Kinder mit Platz:").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await panel.getByRole("listitem").filter({ hasText: "Clara Muster" }).getByText("Abgelehnt").waitFor();
    // Review: the panel's list rules once took the other lists out of their shared rule, and the
    // rejected ones showed bullets and an indent beside their cards.
    const lists = await page.evaluate(() =>
      [".payment-children", ".rejected-list"].map((selector) => {
        const style = getComputedStyle(document.querySelector(selector)!);
        return `${selector} ${style.listStyleType} ${style.paddingLeft}`;
      }),
    );
    expect(lists).toEqual([".payment-children none 0px", ".rejected-list none 0px"]);
    // The list's rows name each amount too (a statement's line without the reference names none).
    const annaRow = page.getByRole("table").getByRole("row", { name: /Muster, Anna/ });
    expect(await annaRow.getByRole("cell").filter({ hasText: "Zahlung ausstehend" }).innerText()).toMatch(/Zahlung ausstehend 200,00\s€/);

    await panel.getByRole("button", { name: "Zahlung über 380,00 € bestätigen" }).click();
    await page.getByRole("status").getByText("Bezahlung für Anna und Ben Muster bestätigt. Die Eltern bekommen in 10 Minuten eine E-Mail.").waitFor();
    await panel.getByText("Die Zahlung ist vollständig bestätigt.").waitFor();
    expect(await panel.getByRole("button").count()).toBe(0);
    expect(siblings.map((id) => registration(id).paid)).toEqual([true, true]);
    // The list below says it in its rows too.
    expect(await page.getByRole("table").getByText("Bezahlt").count()).toBe(2);

    // From a child's detail page back to its enrolment: its reference leads to this search.
    await panel.getByRole("link", { name: "Ben Muster" }).click();
    await page.getByRole("heading", { level: 1, name: "Ben Muster" }).waitFor();
    await page.getByRole("link", { name: "alle Kinder dieser Anmeldung" }).click();
    await panel.getByText("Die Zahlung ist vollständig bestätigt.").waitFor();
    expect(await page.getByLabel("Name oder Verwendungszweck").inputValue()).toBe(reference);

    // Ten minutes later (the scheduler's job, run here at that time): one mail for both.
    sendPaymentMails(new Date(Date.now() + PAYMENT_MAIL_DELAY_MS));
    const mail = await waitForMail(mailDir, parent.email, /^Zahlung eingegangen: /);
    expect(mail.subject).toBe(`Zahlung eingegangen: Anna und Ben Muster – ${camp.title}`);
    expect(mail.text).toContain("die Zahlung für Anna und Ben ist bei uns eingegangen. Vielen Dank!");
    expect(problems).toEqual([]);
    await context.close();
  });

  // One transfer for a family's two enrolments carries both references.
  it("a line with two references shows both enrolments and their sum; each is confirmed on its own", async () => {
    const lead = await createUser({ firstName: "Lea", lastName: "Leitung" });
    const camp = createEvent({ title: `Winterfreizeit ${Date.now()}`, ownerIds: [lead.id] });
    const parent = quickUser({ firstName: "Petra", lastName: "Muster" });
    const first = enrolmentOf(camp.id, parent.id, [["Anna", 20000]]);
    const second = enrolmentOf(camp.id, parent.id, [["Ben", 18000]]);
    const { page, problems, context } = await phoneTab(browser(), { javaScriptEnabled, baseURL: baseUrl, userId: lead.id });

    const mistyped = enrolmentReference(camp.id, 999_999);
    await page.goto(`/freizeit/participants/${camp.id}?suche=${encodeURIComponent(`Freizeit ${first.reference} + ${second.reference} ${mistyped} P. Muster`)}`);
    await page.getByText(`Gesucht nach den Verwendungszwecken ${first.reference}, ${second.reference} und ${mistyped}: die Kinder dieser Anmeldungen.`).waitFor();
    await page.getByText(`Zum Verwendungszweck ${mistyped} gibt es bei dieser Veranstaltung keine Anmeldung.`).waitFor();
    await page.getByText("Zusammen für diese 2 Anmeldungen: 380,00 €.").waitFor();
    const panels = [first, second].map(({ reference }) => page.getByRole("region", { name: `Zahlung zur Anmeldung ${reference}` }));
    await panels[0].getByRole("listitem").filter({ hasText: "Anna Muster: 200,00" }).waitFor();
    await panels[1].getByRole("listitem").filter({ hasText: "Ben Muster: 180,00" }).waitFor();
    expect(await page.getByRole("table").getByRole("row").count()).toBe(3); // head, Anna, Ben
    // Leaders' review: references broke after "LF-" at 320 px; each stays on one line.
    await page.setViewportSize({ width: 320, height: 740 });
    expect(await page.locator(".reference").evaluateAll((spans) => spans.map((s) => s.getClientRects().length))).toEqual([1, 1, 1, 1, 1, 1]);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Review: two buttons may read alike; each names its enrolment in its description.
    expect(await panels[1].getByRole("button").getAttribute("aria-describedby")).toBeTruthy();
    expect(await page.locator(`#${await panels[1].getByRole("button").getAttribute("aria-describedby")}`).textContent()).toBe(`Zahlung zur Anmeldung ${second.reference}`);
    await panels[1].getByRole("button", { name: "Zahlung über 180,00 € bestätigen" }).click();
    await panels[1].getByText("Die Zahlung ist vollständig bestätigt.").waitFor();
    await page.getByText("Zusammen für diese 2 Anmeldungen: 380,00 € (davon offen: 200,00 €).").waitFor();
    expect([registration(first.ids[0]).paid, registration(second.ids[0]).paid]).toEqual([false, true]);
    await panels[0].getByRole("button", { name: "Zahlung über 200,00 € bestätigen" }).click();
    await panels[0].getByText("Die Zahlung ist vollständig bestätigt.").waitFor();
    expect(registration(first.ids[0]).paid).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
