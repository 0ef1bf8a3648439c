// Names in German order on the event's lists and in their Excel files (an admins' review:
// "Schröder, Lotta" came before "Schäfer, Emilia" on the participant list and in every .xlsx; the
// files sorted "müller" after "Zander"). As the admin's user list does: umlauts as their vowel,
// ß as ss, without regard to case (germanNameOrder).
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { getParticipantList } from "~/models/review.server";
import { loader } from "~/routes/freizeit.export.$id.$list";
import { createEvent } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { addHelper, quickUser, register } from "../support/lists-fixtures";
import { get, run } from "../support/remix";

const NAMES = [
  ["Lotta", "Schröder"],
  ["Ben", "Schulz"],
  ["anna", "müller"],
  ["Emilia", "Schäfer"],
  ["Jan", "Zander"],
  ["Otto", "Mayer"],
  ["Ömer", "Mayer"],
] as const;
const GERMAN = ["Mayer, Ömer", "Mayer, Otto", "müller, anna", "Schäfer, Emilia", "Schröder, Lotta", "Schulz, Ben", "Zander, Jan"];

let eventId: number;
let cookie: string;

beforeAll(async () => {
  resetDatabase();
  const lead = await createUser();
  cookie = await sessionCookieFor(lead.id);
  eventId = createEvent({ ownerIds: [lead.id] }).id;
  for (const [firstName, lastName] of NAMES) register(eventId, { status: "accepted", child: { firstName, lastName } });
  for (const [firstName, lastName] of NAMES) addHelper(eventId, quickUser({ firstName, lastName }).id);
});

async function sheetNames(list: string) {
  const response = await run(loader, get(`/freizeit/export/${eventId}/${list}`, { cookie, params: { id: String(eventId), list } }));
  const book = new ExcelJS.Workbook();
  await book.xlsx.read(Readable.fromWeb(response.body! as never));
  const sheet = book.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).map(String);
  const last = header.indexOf("Nachname");
  const first = header.indexOf("Vorname");
  const names: string[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1 && row.getCell(last).value) names.push(`${row.getCell(last).value}, ${row.getCell(first).value}`);
  });
  return names;
}

describe("German name order", () => {
  it("the participant list's table", () => {
    const list = getParticipantList(eventId, null, { filter: "alle", search: "", page: 1 }, false);
    expect(list.table.map((r) => `${r.lastName}, ${r.firstName}`)).toEqual(GERMAN);
  });

  it.each(["teilnehmerliste", "mitarbeiterliste"])("the %s", async (list) => {
    expect(await sheetNames(list)).toEqual(GERMAN);
  });
});
