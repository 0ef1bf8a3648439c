// Calendars (issue 13): an .ics for every event a person may see, in Europe/Berlin with its time
// zone, place and link; the personal feed under a secret address that can be replaced (the old
// one is 404); a staff-only event is in no one else's feed.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { loader as eventIcs } from "~/routes/freizeit_.$id.kalender[.ics]";
import { loader as feed } from "~/routes/kalender.$token.meine-veranstaltungen[.ics]";
import { action as replaceFeed } from "~/routes/account.kalender";
import { loader as accountPage } from "~/routes/account._index";
import { action as logout } from "~/routes/logout";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";
import { addHelper, register } from "../support/lists-fixtures";
import { body, cookieFrom, get, post, run } from "../support/remix";

let lead: Awaited<ReturnType<typeof createUser>>;
let parent: Awaited<ReturnType<typeof createUser>>;
let team: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
const ids: Record<string, number> = {};
const cookies: Record<string, string> = {};

beforeAll(async () => {
  resetDatabase();
  lead = await createUser();
  parent = await createUser();
  team = await createUser();
  stranger = await createUser();
  for (const [name, user] of Object.entries({ lead, parent, team, stranger })) cookies[name] = await sessionCookieFor(user.id);
  ids.summer = createEvent({ title: "Sommerlager", location: "Plön, Seeweg 3", dateFrom: "2027-07-10", timeFrom: "09:30", dateTo: "2027-07-16", timeTo: "16:00", ownerIds: [lead.id] }).id;
  ids.winter = createEvent({ title: "Winterfahrt", dateFrom: "2027-01-15", timeFrom: "18:00" }).id;
  ids.staff = createEvent({ title: "Teamwochenende", onlyStaffVisible: true, ownerIds: [lead.id] }).id;
  ids.other = createEvent({ title: "Fremde Freizeit" }).id;
  ids.rejected = createEvent({ title: "Abgelehnt" }).id;
  register(ids.summer, { userId: parent.id, status: "open" });
  register(ids.winter, { userId: parent.id });
  register(ids.rejected, { userId: parent.id, status: "rejected" });
  // A parent with a child at a staff-only event still does not see it.
  register(ids.staff, { userId: parent.id });
  addHelper(ids.staff, team.id, "accepted");
});

async function ics(eventId: number, cookie?: string) {
  return run(eventIcs, get(`/freizeit/${eventId}/kalender.ics`, { cookie, params: { id: String(eventId) } }));
}

/** A new feed address, as the account page shows it after the redirect (parents' review: it was
 * only in the flash message, cut off at 320 px and gone once closed). */
async function newFeed(cookie: string) {
  const response = await run(replaceFeed, post("/account/kalender", {}, { cookie }));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/account#kalender-abo");
  const shown = { cookie: `${cookie}; ${cookieFrom(response, "lf_kalender")!}` };
  const { calendarAddress } = await body<{ calendarAddress: string | null }>(await run(accountPage, get("/account", shown)));
  const path = /^http:\/\/localhost:3000(\/kalender\/([^/]+)\/meine-veranstaltungen\.ics)$/.exec(calendarAddress!)!;
  // Shown again on a reload, never to another account signing in on the same browser.
  expect((await body<{ calendarAddress: string | null }>(await run(accountPage, get("/account", shown)))).calendarAddress).toBe(calendarAddress);
  const other = { cookie: `${await sessionCookieFor((await createUser()).id)}; ${cookieFrom(response, "lf_kalender")!}` };
  expect((await body<{ calendarAddress: string | null }>(await run(accountPage, get("/account", other)))).calendarAddress).toBeNull();
  return { path: path[1], token: path[2] };
}

async function readFeed(token: string) {
  return run(feed, get(`/kalender/${token}/meine-veranstaltungen.ics`, { params: { token } }));
}

describe("the event's calendar file", () => {
  it("start and end in Europe/Berlin with the time zone, place and a link back", async () => {
    const response = await ics(ids.summer);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const text = await response.text();
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin");
    expect(text).toContain("DTSTART;TZID=Europe/Berlin:20270710T093000");
    expect(text).toContain("DTEND;TZID=Europe/Berlin:20270716T160000");
    expect(text).toContain("SUMMARY:Sommerlager");
    expect(text).toContain("LOCATION:Plön\\, Seeweg 3");
    expect(text).toContain(`URL;VALUE=URI:http://localhost:3000/freizeit/${ids.summer}`);
    const winter = await (await ics(ids.winter)).text();
    expect(winter).toContain("DTSTART;TZID=Europe/Berlin:20270115T180000");
    expect(winter).toContain("DTEND;TZID=Europe/Berlin:20270115T190000");
  });

  // A review of the change: forms take years 1900–2199 now; an event saved before with a mistyped
  // year must not break its file (nor the feeds that list it).
  it("is still served for an event stored with a year the forms no longer take", async () => {
    const old = createEvent({ title: "Vertippt", dateFrom: "0215-07-10", timeFrom: "09:30" }).id;
    const response = await ics(old);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("SUMMARY:Vertippt");
  });

  it("a title with line breaks or ICS separators cannot add lines to the file (its name is escaped)", async () => {
    const hostile = createEvent({ title: "Lager\r\nATTACH:http://evil.test/x; a,b\\", dateFrom: "2027-08-01" });
    const text = await (await ics(hostile.id)).text();
    const lines = text.split("\r\n");
    expect(lines.filter((line) => /^ATTACH/i.test(line))).toEqual([]);
    expect(text).toContain("X-WR-CALNAME:Lager\\nATTACH:http://evil.test/x\\; a\\,b\\\\");
    expect(text).toContain("SUMMARY:Lager\\nATTACH:http://evil.test/x\\; a\\,b\\\\");
  });

  it("a staff-only event: only for its staff; 404 for visitors, parents and others", async () => {
    expect((await ics(ids.staff, cookies.lead)).status).toBe(200);
    expect((await ics(ids.staff, cookies.team)).status).toBe(200);
    for (const cookie of [undefined, cookies.parent, cookies.stranger]) expect((await ics(ids.staff, cookie)).status).toBe(404);
    expect((await ics(999_999)).status).toBe(404);
  });
});

describe("the personal feed", () => {
  it("works under its secret address, is replaced, and the old address is 404", async () => {
    const before = await run(accountPage, get("/account", { cookie: cookies.parent }));
    expect(((await before.json()) as { calendarFeed: boolean }).calendarFeed).toBe(false);
    const first = await newFeed(cookies.parent);
    const response = await readFeed(first.token);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("X-WR-CALNAME:Meine Veranstaltungen");
    expect(text).toContain("SUMMARY:Sommerlager");
    expect(text).toContain("SUMMARY:Winterfahrt");
    expect(text).not.toContain("Abgelehnt");
    expect(text).not.toContain("Fremde Freizeit");
    expect(text).not.toContain("Teamwochenende");
    const after = await run(accountPage, get("/account", { cookie: cookies.parent }));
    expect(((await after.json()) as { calendarFeed: boolean }).calendarFeed).toBe(true);

    const second = await newFeed(cookies.parent);
    expect(second.token).not.toBe(first.token);
    expect((await readFeed(first.token)).status).toBe(404);
    expect((await readFeed(second.token)).status).toBe(200);
    expect((await readFeed("nicht-geheim-genug")).status).toBe(404);
    expect((await readFeed("a".repeat(43))).status).toBe(404);
  });

  it("a staff-only event is in its staff's feeds only", async () => {
    const leadFeed = await (await readFeed((await newFeed(cookies.lead)).token)).text();
    expect(leadFeed).toContain("SUMMARY:Teamwochenende");
    expect(leadFeed).toContain("SUMMARY:Sommerlager");
    const teamFeed = await (await readFeed((await newFeed(cookies.team)).token)).text();
    expect(teamFeed).toContain("SUMMARY:Teamwochenende");
    const strangerFeed = await (await readFeed((await newFeed(cookies.stranger)).token)).text();
    expect(strangerFeed).not.toContain("BEGIN:VEVENT");
  });

  it("a signed-out person cannot make a feed address", async () => {
    const response = await run(replaceFeed, post("/account/kalender", {}));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login/);
  });
});

// Attack probe: the address's cookie lived on after a sign-out, its ten minutes were only the
// browser's word, and an address replaced from another device was still shown as new.
describe("the new address's cookie", () => {
  const shownWith = async (cookie: string, kalender: string) =>
    (await body<{ calendarAddress: string | null }>(await run(accountPage, get("/account", { cookie: `${cookie}; ${kalender}` })))).calendarAddress;

  it("shows the address for ten minutes by the server's clock, and only while it is the account's feed", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const first = cookieFrom(await run(replaceFeed, post("/account/kalender", {}, { cookie })), "lf_kalender")!;
    expect(await shownWith(cookie, first)).toMatch(/\/kalender\//);
    const second = cookieFrom(await run(replaceFeed, post("/account/kalender", {}, { cookie })), "lf_kalender")!;
    expect(await shownWith(cookie, first)).toBeNull();
    expect(await shownWith(cookie, second)).toMatch(/\/kalender\//);
    vi.useFakeTimers({ now: Date.now() + 11 * 60_000, toFake: ["Date"] });
    try {
      expect(await shownWith(cookie, second)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("is cleared by signing out, as is the sign-up's thanks", async () => {
    const cookie = await sessionCookieFor((await createUser()).id);
    const response = await run(logout, post("/logout", {}, { cookie }));
    const cleared = response.headers.getSetCookie();
    expect(cleared.find((c) => c.startsWith("lf_kalender=;"))).toMatch(/Path=\/account/);
    expect(cleared.find((c) => c.startsWith("lf_signup=;"))).toMatch(/Path=\/signup/);
  });
});
