// The four Excel lists (issue 13): who may download them, exactly the accepted registrations,
// real dates, the formula guard, no IBAN, the file names; speed and memory at 1,000 rows.
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { sepaMandates } from "../../db/schema";
import { db } from "~/services/db.server";
import { loader } from "~/routes/freizeit.export.$id.$list";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";
import { get, run } from "../support/remix";
import { addGroup, addHelper, quickUser, register } from "../support/lists-fixtures";

async function download(eventId: number, list: string, cookie?: string) {
  return run(loader, get(`/freizeit/export/${eventId}/${list}`, { cookie, params: { id: String(eventId), list } }));
}

async function workbookOf(response: Response) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.read(Readable.fromWeb(response.body! as never));
  return book;
}

function rowValues(sheet: ExcelJS.Worksheet) {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe("the Excel lists", () => {
  let eventId: number;
  const cookies: Record<string, string> = {};
  let accepted: ReturnType<typeof register>[];

  beforeAll(async () => {
    resetDatabase();
    const lead = await createUser();
    const team = await createUser({ firstName: "Tom", lastName: "Team" });
    const pending = await createUser();
    const parent = await createUser();
    const admin = await createUser({ role: "admin" });
    const event = createEvent({ title: "Zeltlager: Sommer/See", ownerIds: [lead.id], dateFrom: "2027-07-10", dateTo: "2027-07-16" } as never);
    eventId = event.id;
    addHelper(eventId, team.id, "accepted");
    addHelper(eventId, pending.id, "pending");
    for (const [name, user] of Object.entries({ lead, team, pending, parent, admin })) cookies[name] = await sessionCookieFor(user.id);

    const mallory = register(eventId, {
      userId: parent.id,
      child: { firstName: '=HYPERLINK("http://x","y")', lastName: "+Böse", birthDate: "2016-07-11", street: "@Straße 1" },
      answers: { specialNeeds: "-Nüsse\nkeine Erdnüsse", paymentMethod: "sepa" },
    });
    accepted = [mallory, register(eventId, { child: { firstName: "Anna", lastName: "Adler", birthDate: "2014-07-10" }, paid: true })];
    register(eventId, { status: "open", child: { firstName: "Offen" } });
    register(eventId, { status: "rejected", child: { firstName: "Abgelehnt" } });
    register(eventId, { status: "cancelled", child: { firstName: "Storniert" } });
    register(eventId, { status: "open", waitingListPosition: 1, child: { firstName: "Wartend" } });
    db.insert(sepaMandates)
      .values({ userId: parent.id, eventId, firstName: "P", lastName: "Q", street: "Weg 1", postalCode: "12345", city: "Kiel", iban: "DE02120300000000202051" })
      .run();
    addGroup(eventId, "Füchse [1]", { registrationIds: [accepted[1].registration.id], helperIds: [team.id] });
    addGroup(eventId, "Bären", { registrationIds: [mallory.registration.id] });
  });

  it("lead persons, the camp team and admins download; pending helpers, parents and visitors get 404 or the login", async () => {
    for (const who of ["lead", "team", "admin"]) expect((await download(eventId, "teilnehmerliste", cookies[who])).status).toBe(200);
    for (const who of ["pending", "parent"]) expect((await download(eventId, "teilnehmerliste", cookies[who])).status).toBe(404);
    const visitor = await download(eventId, "teilnehmerliste");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/login/);
    expect((await download(eventId, "geheimliste", cookies.lead)).status).toBe(404);
    expect((await download(999_999, "teilnehmerliste", cookies.admin)).status).toBe(404);
  });

  it("names the file 'Teilnehmerliste (Titel).xlsx' with a safe Content-Disposition", async () => {
    const response = await download(eventId, "teilnehmerliste", cookies.lead);
    expect(response.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const disposition = response.headers.get("Content-Disposition")!;
    expect(disposition).toContain(`filename="Teilnehmerliste (Zeltlager_ Sommer_See).xlsx"`);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent("Teilnehmerliste (Zeltlager_ Sommer_See).xlsx")}`);
    await response.arrayBuffer();
  });

  it("Teilnehmerliste: exactly the accepted registrations, bold frozen header, real dates, the formula guard, no IBAN", async () => {
    const book = await workbookOf(await download(eventId, "teilnehmerliste", cookies.team));
    const sheet = book.worksheets[0];
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.getColumn(18).width).toBe(40);
    const rows = rowValues(sheet);
    expect(rows).toHaveLength(3);
    expect(rows[0].slice(0, 4)).toEqual(["Nachname", "Vorname", "Geburtsdatum", "Alter bei Beginn"]);
    const names = rows.slice(1).map((r) => r[1]);
    expect(names).toEqual([`'=HYPERLINK("http://x","y")`, "Anna"]);
    const evil = sheet.getRow(2);
    for (let c = 1; c <= 22; c++) expect(evil.getCell(c).type).not.toBe(ExcelJS.ValueType.Formula);
    expect(evil.getCell(1).value).toBe("'+Böse");
    expect(evil.getCell(5).value).toBe("'@Straße 1");
    expect(evil.getCell(18).value).toBe("'-Nüsse\nkeine Erdnüsse");
    const birth = evil.getCell(3);
    expect(birth.type).toBe(ExcelJS.ValueType.Date);
    expect((birth.value as Date).toISOString()).toBe("2016-07-11T00:00:00.000Z");
    expect(birth.numFmt).toBe("dd.mm.yyyy");
    expect(evil.getCell(4).value).toBe(10);
    expect(sheet.getRow(3).getCell(4).value).toBe(13);
    expect(evil.getCell(21).value).toBe(249.5);
    expect(evil.getCell(22).value).toBe("Bären");
    expect(JSON.stringify(rows)).not.toMatch(/DE02|IBAN/);
  });

  it("Zuschussliste: head block, one row per accepted child with days present, signature column, total of participant-days", async () => {
    const book = await workbookOf(await download(eventId, "zuschussliste", cookies.lead));
    const sheet = book.worksheets[0];
    const rows = rowValues(sheet);
    expect(rows[0]).toEqual(["Träger", "Jugendverband e.V."]);
    expect(rows[1]).toEqual(["Veranstaltung", "Zeltlager: Sommer/See"]);
    expect(rows[3]).toEqual(["Zeitraum", "10.07.27 bis 16.07.27"]);
    expect(rows[4]).toEqual(["Tage", 7]);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 7 });
    expect(sheet.getRow(7).getCell(12).value).toBe("Unterschrift");
    const people = rows.slice(6, 8);
    expect(people.map((r) => r[2])).toEqual([`'=HYPERLINK("http://x","y")`, "Anna"]);
    expect(people[1].slice(6, 11)).toEqual(["Kreis Plön", "Amt Großer Plöner See", new Date("2014-07-10T00:00:00Z"), 13, 7]);
    expect(rows.at(-1)![1]).toBe("Summe Teilnehmendentage");
    expect(rows.at(-1)![10]).toBe(14);
  });

  it("Mitarbeiterliste: the accepted helpers with e-mail and group", async () => {
    const rows = rowValues((await workbookOf(await download(eventId, "mitarbeiterliste", cookies.lead))).worksheets[0]);
    expect(rows).toHaveLength(2);
    expect(rows[1][0]).toBe("Team");
    expect(rows[1][3]).toBe("Füchse [1]");
  });

  it("Gruppenliste: one sheet per group with its helpers and accepted participants", async () => {
    const book = await workbookOf(await download(eventId, "gruppenliste", cookies.lead));
    expect(book.worksheets.map((s) => s.name)).toEqual(["Bären", "Füchse  1"]);
    const foxes = rowValues(book.worksheets[1]);
    expect(foxes.map((r) => r[0])).toEqual(["Rolle", "Mitarbeiter*in", "Teilnehmer*in"]);
    expect(foxes[2][2]).toBe("Anna");
  });

  it("Gruppenliste: the accepted children and helpers without a group on a sheet 'Ohne Gruppe', everyone there when there are no groups", async () => {
    // Found by a review: they were on no sheet at all, while the camp sheets list them.
    const lead = await createUser();
    const helper = await createUser({ firstName: "Hanna", lastName: "Helfer" });
    const camp = createEvent({ title: "Gruppenlager", ownerIds: [lead.id], dateFrom: "2027-07-10" } as never).id;
    addHelper(camp, helper.id, "accepted");
    const cookie = await sessionCookieFor(lead.id);
    const grouped = register(camp, { child: { firstName: "Gina", lastName: "Gruppe", birthDate: "2015-01-01" } });
    register(camp, { child: { firstName: "Olaf", lastName: "Ohne", birthDate: "2015-01-01" } });
    register(camp, { status: "open", child: { firstName: "Offen", lastName: "Ohne" } });

    const noGroups = await workbookOf(await download(camp, "gruppenliste", cookie));
    expect(noGroups.worksheets.map((s) => s.name)).toEqual(["Ohne Gruppe"]);
    expect(rowValues(noGroups.worksheets[0]).slice(1).map((r) => [r[0], r[2]])).toEqual([["Mitarbeiter*in", "Hanna"], ["Teilnehmer*in", "Gina"], ["Teilnehmer*in", "Olaf"]]);

    addGroup(camp, "Adler", { registrationIds: [grouped.registration.id] });
    const book = await workbookOf(await download(camp, "gruppenliste", cookie));
    expect(book.worksheets.map((s) => s.name)).toEqual(["Adler", "Ohne Gruppe"]);
    expect(rowValues(book.worksheets[1]).slice(1).map((r) => r[2])).toEqual(["Hanna", "Olaf"]);
  });

  it("Gruppenliste: group names Excel would call damaged (History, apostrophes) still give a book that opens", async () => {
    // Found by a probe: the streaming writer wrote such names as they were.
    const lead = await createUser();
    const camp = createEvent({ title: "Namenslager", ownerIds: [lead.id] }).id;
    const cookie = await sessionCookieFor(lead.id);
    const child = register(camp, { child: { firstName: "Nora" } });
    register(camp, { child: { firstName: "Olli" } });
    addGroup(camp, "History", { registrationIds: [child.registration.id] });
    addGroup(camp, "'Eulen'");
    addGroup(camp, "Ohne Gruppe");
    const book = await workbookOf(await download(camp, "gruppenliste", cookie));
    expect(book.worksheets.map((s) => s.name)).toEqual(["Eulen", "History 2", "Ohne Gruppe", "Ohne Gruppe 2"]);
  });

  it("Teilnehmerliste and Zuschussliste of 1,000 registrations: under 1 s and 50 MB each", async () => {
    const big = createEvent({ title: "Großlager" }).id;
    const parent = quickUser();
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) register(big, { userId: parent.id, child: { firstName: `Kind ${i}` } });
    });
    // A running server has loaded exceljs's writers already: warm up on the small event.
    await (await download(eventId, "teilnehmerliste", cookies.admin)).arrayBuffer();
    for (const list of ["teilnehmerliste", "zuschussliste"]) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      const started = performance.now();
      let peak = before;
      const response = await download(big, list, cookies.admin);
      const reader = response.body!.getReader();
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      const ms = performance.now() - started;
      expect(bytes).toBeGreaterThan(10_000);
      console.info(`${list}: ${Math.round(ms)} ms, ${((peak - before) / 1024 / 1024).toFixed(1)} MB more`);
      expect(ms, `${list} took ${ms} ms`).toBeLessThan(1000);
      expect((peak - before) / 1024 / 1024, `${list} memory`).toBeLessThan(50);
    }
  });
});
