// axe-core over every page of the app, filled with a camp's people (children placed, waiting and
// open, helpers applying, groups, comments, a SEPA mandate, the protocol), on a 360-pixel phone,
// with JavaScript and without: the decision steps, and the answers of refused forms, too. Nothing
// it finds may stay (WCAG 2.2 AA and axe's best practices).
import { describe, expect, inject, it } from "vitest";
import { comments, enrolments } from "../../db/schema";
import { db } from "~/services/db.server";
import { axeChecker } from "../support/axe";
import { fileBrowser, hydrated, JS_MODES, openTab } from "../support/browser";
import { browserSessionCookie } from "../support/fixtures";
import { addGroup, register } from "../support/lists-fixtures";
import { campWithPeople, mandateFor } from "../support/review-fixtures";

const { baseUrl } = inject("e2e")!;
const browser = fileBrowser();

async function filledCamp() {
  const { event, people } = await campWithPeople({ title: "Axe-Sommerlager", capacity: 2, permitsRequired: true, tshirtSizeRequired: true, priceCents: 24500 });
  const enrolment = db.insert(enrolments).values({ eventId: event.id, userId: people.parent.id, submissionKey: `axe-${event.id}-0123456789abcdef`, reference: `AXE-${event.id}`, paymentMethod: "transfer" }).returning().get();
  const placed = register(event.id, { userId: people.parent.id, child: { firstName: "Mia" }, answers: { enrolmentId: enrolment.id, specialNeeds: "Erdnussallergie" } });
  const waiting = register(event.id, { status: "open", waitingListPosition: 1, child: { firstName: "Ben" } });
  // A second enrolment of the family: a statement's line may name both.
  const second = db.insert(enrolments).values({ eventId: event.id, userId: people.parent.id, submissionKey: `axe-${event.id}-fedcba9876543210`, reference: `AXE-${event.id}-2`, paymentMethod: "transfer" }).returning().get();
  const open = register(event.id, { status: "open", child: { firstName: "Ole" }, userId: people.parent.id, answers: { enrolmentId: second.id } });
  addGroup(event.id, "Füchse", { registrationIds: [placed.registration.id], helperIds: [people.team.id] });
  db.insert(comments).values({ participantId: waiting.child.id, eventId: event.id, authorId: people.lead.id, text: "Ruft am Montag zurück." }).run();
  const mandate = mandateFor(event.id, people.parent.id);
  return { event, people, placed, open, enrolment, second, mandate };
}

describe.each(JS_MODES)("axe at 360 px, $name", ({ javaScriptEnabled }) => {
  it("finds nothing on any page, any decision step, any refused form", async () => {
    const { event, people, placed, open, enrolment, second, mandate } = await filledCamp();
    const pages: [string, number | null][] = [
      ["/", null],
      ["/login", null],
      ["/signup", null],
      ["/forgot", null],
      ["/resetPassword", null],
      ["/konto-bestaetigen", null],
      [`/freizeit/${event.id}`, null],
      ["/gibt-es-nicht", null],
      ["/", people.parent.id],
      [`/freizeit/${event.id}`, people.parent.id],
      [`/enroll/${event.id}`, people.parent.id],
      [`/anmeldung/${enrolment.id}`, people.parent.id],
      ["/account", people.parent.id],
      ["/account?tab=teilnehmer", people.parent.id],
      [`/freizeit/${event.id}`, people.admin.id],
      ["/freizeit/create", people.admin.id],
      [`/freizeit/edit/${event.id}`, people.admin.id],
      [`/freizeit/participants/${event.id}`, people.lead.id],
      // Searched by a transfer's reference: the enrolment's payment panel.
      [`/freizeit/participants/${event.id}?suche=LF-${event.id}-A${enrolment.id}`, people.lead.id],
      // Two references and a mistyped one in one line: two panels, their sum and a note.
      [`/freizeit/participants/${event.id}?suche=LF-${event.id}-A${enrolment.id}+LF-${event.id}-A${second.id}+LF-${event.id}-A999999`, people.lead.id],
      // 'Ausgewählte annehmen': its step, and its answer when nothing was ticked.
      [`/freizeit/participants/${event.id}?entscheiden=accept-many&auswahl=${open.registration.id}`, people.lead.id],
      [`/freizeit/participants/${event.id}?entscheiden=accept-many`, people.lead.id],
      [`/freizeit/participants/${event.id}/notfall`, people.lead.id],
      [`/freizeit/participants/participant-details/${placed.registration.id}`, people.lead.id],
      [`/freizeit/helper/${event.id}`, people.lead.id],
      [`/freizeit/helper/${event.id}/helper-details/${people.pending.id}`, people.lead.id],
      [`/freizeit/sendEmails/${event.id}`, people.lead.id],
      [`/freizeit/${event.id}/sepa/${mandate.id}`, people.lead.id],
      ["/gott", people.admin.id],
      ["/gott?tab=benutzer", people.admin.id],
      ["/gott?tab=veranstaltungen", people.admin.id],
      ["/gott?tab=protokoll", people.admin.id],
      [`/account/${people.parent.id}`, people.admin.id],
    ];
    /** The forms refused when sent empty, by their button. */
    const refused: Record<string, string> = {
      "/signup": "Account erstellen",
      [`/enroll/${event.id}`]: "Verbindlich Anmelden",
      "/freizeit/create": "Veranstalltung veröffentlichen",
      [`/freizeit/sendEmails/${event.id}`]: "E-Mail senden",
    };
    const axe = await axeChecker(browser());
    const found: Record<string, string[]> = {};
    const tabs = new Map<number | null, Awaited<ReturnType<typeof openTab>>>();
    for (const [path, userId] of pages) {
      if (!tabs.has(userId)) {
        const tab = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
        await tab.page.setViewportSize({ width: 360, height: 740 });
        if (userId) await tab.context.addCookies([await browserSessionCookie(userId, baseUrl)]);
        tabs.set(userId, tab);
      }
      const { page } = tabs.get(userId)!;
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(path === "/gibt-es-nicht" ? 404 : 200);
      found[path] = await axe.violations(page);
      // Each kind of decision step of a list (a reason to give, or 'really?').
      const steps = new Map<string, string>();
      for (const href of await page.locator("main a[href*='entscheiden='], main a[href*='frage=']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
        const intent = /(?:entscheiden|frage)=([\w-]+)/.exec(href)![1];
        if (!steps.has(intent)) steps.set(intent, href);
      }
      for (const step of steps.values()) {
        await page.goto(new URL(step, page.url()).href);
        found[`${path} → ${step}`] = await axe.violations(page);
      }
      const button = refused[path];
      if (button) {
        await page.goto(path);
        // With JavaScript a button may be disabled once React has the page: ask after that (pages
        // without any script, such as the sign-in, are never hydrated).
        if (javaScriptEnabled && (await page.locator("script").count()) > 0) await hydrated(page);
        const send = page.getByRole("button", { name: button });
        if (await send.isEnabled()) {
          await send.click();
          await page.locator(".field-errors, [role=alert]").first().waitFor();
          found[`${path}, refused`] = await axe.violations(page);
        }
      }
    }
    for (const tab of tabs.values()) await tab.context.close();
    await axe.close();
    expect(Object.keys(found).length).toBeGreaterThan(pages.length);
    expect(Object.fromEntries(Object.entries(found).filter(([, violations]) => violations.length))).toEqual({});
  }, 180_000);
});
