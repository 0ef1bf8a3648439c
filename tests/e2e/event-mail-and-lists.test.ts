// Issue 13 in the browser, with JavaScript and without: a lead person sends a mail with two
// attachments to the participants (the families find it in MAIL_DIR with the attachments), sees
// the log, and downloads the four Excel lists from the participant list.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { simpleParser } from "mailparser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { fileBrowser, JS_MODES, openTab } from "../support/browser";
import { createEvent, executableBytes, pdfBytes, pngBytes } from "../support/events";
import { browserSessionCookie, createUser } from "../support/fixtures";
import { addHelper, quickUser, register } from "../support/lists-fixtures";
import { waitForMail } from "../support/mail";

const { baseUrl, mailDir } = inject("e2e")!;
const browser = fileBrowser();
const dir = mkdtempSync(path.join(tmpdir(), "lf-e2e-mail-"));
const plan = path.join(dir, "Lageplan.png");
const brief = path.join(dir, "Elternbrief.pdf");
const program = path.join(dir, "Programm.pdf");

beforeAll(async () => {
  writeFileSync(plan, pngBytes(320, 200));
  writeFileSync(brief, pdfBytes());
  writeFileSync(program, executableBytes());
});

describe.each(JS_MODES)("event e-mail and Excel lists $name", ({ javaScriptEnabled }) => {
  it("a lead person sends a mail with two attachments to the participants, sees the log and downloads the four lists", async () => {
    const stamp = `${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}`;
    const lead = await createUser({ firstName: "Lina", lastName: "Leitung" });
    const title = `Pfingstlager ${stamp}`;
    const event = createEvent({ title, ownerIds: [lead.id] });
    const families = [0, 1].map((i) => quickUser({ email: `familie-${i}-${stamp}@example.org` }));
    for (const family of families) register(event.id, { userId: family.id, guardian: null, child: { firstName: `Kind-${family.id}` } });
    const helper = quickUser({ email: `helferin-${stamp}@example.org` });
    addHelper(event.id, helper.id);

    const { page, problems, context } = await openTab(browser(), { javaScriptEnabled, baseURL: baseUrl });
    await context.addCookies([await browserSessionCookie(lead.id, baseUrl)]);
    await page.goto(`/freizeit/${event.id}`);
    await page.getByRole("link", { name: "E-Mail an alle" }).click();
    await page.getByRole("heading", { level: 1, name: "E-Mail zur Veranstaltung" }).waitFor();

    const sendButton = page.getByRole("button", { name: "E-Mail senden" });
    if (javaScriptEnabled) {
      // Hydrated once the script-only button is there.
      await page.getByRole("button", { name: "Neuer Anhang" }).waitFor();
      expect(await sendButton.isDisabled()).toBe(true);
      // It says why it waits, and 'Neuer Anhang' is as wide as its words.
      expect(await page.locator(`#${await sendButton.getAttribute("aria-describedby")}`).textContent()).toBe("Zum Senden bitte Betreff und Text ausfüllen.");
      const widths = await page.evaluate(() => ({
        button: (document.evaluate("//button[.='Neuer Anhang']", document, null, 9, null).singleNodeValue as Element).getBoundingClientRect().width,
        form: document.querySelector(".event-mail-form")!.getBoundingClientRect().width,
      }));
      expect(widths.button).toBeLessThan(widths.form / 2);
    }
    await page.getByLabel("Betreff*").fill("Packliste und Lageplan");
    await page.getByLabel("Text*").fill("Liebe Familien,\nanbei Elternbrief und Lageplan.");
    if (javaScriptEnabled) expect(await sendButton.getAttribute("aria-describedby")).toBeNull();
    await page.getByLabel(/^Teilnehmende \(2 Adressen\)$/).check();
    expect(await page.getByLabel(/^Teilnehmende und Mitarbeitende \(3 Adressen\)$/).count()).toBe(1);
    if (javaScriptEnabled) {
      await page.getByRole("button", { name: "Neuer Anhang" }).click();
      await page.getByRole("button", { name: "Neuer Anhang" }).click();
      await page.locator("#attachment1").setInputFiles(brief);
      await page.locator("#attachment2").setInputFiles(plan);
      expect(await page.locator("#attachmentFileName1").inputValue()).toBe("Elternbrief.pdf");
      expect(await page.getByText("Datei ändern").count()).toBe(2);
      expect(await sendButton.isDisabled()).toBe(false);
    } else {
      await page.getByLabel("Datei auswählen").first().setInputFiles(brief);
      await page.locator("#attachment2").setInputFiles(plan);
    }
    await page.getByLabel("Anzeigename").first().fill("Elternbrief Pfingsten");
    // A program named .pdf is refused; the typed display name stays, only the files are chosen again.
    await page.locator("#attachment1").setInputFiles(program);
    await sendButton.click();
    await page.locator("#attachment1-error").getByText("Als Anhang sind nur Bilder, Textdateien und PDF erlaubt.").waitFor();
    expect(await page.getByLabel("Anzeigename").first().inputValue()).toBe("Elternbrief Pfingsten");
    expect(await page.getByLabel("Anzeigename").first().isVisible()).toBe(true);
    await page.locator("#attachment1").setInputFiles(brief);
    await page.locator("#attachment2").setInputFiles(plan);
    if (javaScriptEnabled) expect(await page.locator("#attachmentFileName2").isVisible()).toBe(true);
    await sendButton.click();

    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("E-Mail wurde erfolgreich gesendet!");

    for (const family of families) {
      const mail = await waitForMail(mailDir, family.email, "Packliste und Lageplan");
      const parsed = await simpleParser(readFileSync(path.join(mailDir, mail.file!)));
      expect(mail.to).toEqual([family.email]);
      expect(mail.text).toContain("anbei Elternbrief und Lageplan.");
      expect(parsed.attachments.map((a) => a.filename)).toEqual(["Elternbrief Pfingsten.pdf", "Lageplan.png"]);
      expect(parsed.attachments[1].content.equals(readFileSync(plan))).toBe(true);
    }

    // The log: subject, sender, every address sent.
    await page.goto(`/freizeit/sendEmails/${event.id}`);
    const log = page.getByRole("region", { name: "Gesendete E-Mails" });
    expect(await log.textContent()).toContain("Packliste und Lageplan");
    expect(await log.textContent()).toContain("Von Lina Leitung");
    for (let i = 0; !(await log.textContent())?.includes("2 gesendet"); i++) {
      if (i > 50) throw new Error(`log never showed the mails as sent: ${await log.textContent()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.reload();
    }
    await log.getByText("Empfänger*innen anzeigen").click();
    expect(await log.getByRole("cell", { name: families[0].email }).isVisible()).toBe(true);
    expect(await log.textContent()).not.toContain(helper.email);

    // The four lists from the participant list.
    await page.goto(`/freizeit/participants/${event.id}`);
    for (const list of ["Teilnehmerliste", "Zuschussliste", "Mitarbeiterliste", "Gruppenliste"]) {
      const menu = page.locator("details.export-menu");
      if (!(await menu.evaluate((el: HTMLDetailsElement) => el.open))) await page.getByText("Export-Menü öffnen").click();
      const [download] = await Promise.all([page.waitForEvent("download"), menu.getByRole("link", { name: list }).click()]);
      expect(download.suggestedFilename()).toBe(`${list} (${title}).xlsx`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile((await download.path())!);
      const text = JSON.stringify(book.worksheets.map((s) => s.getSheetValues()));
      if (list === "Teilnehmerliste") for (const family of families) expect(text).toContain(`Kind-${family.id}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
