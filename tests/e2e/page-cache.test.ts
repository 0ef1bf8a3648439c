// The built server's cache of anonymous pages (issue 14, item 2): every kind of write that
// changes `/` or an event page shows in the very next answer, whether the test writes the
// database itself (another connection, as another worker would) or the server does (an action).
import { and, eq } from "drizzle-orm";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { eventOwners, events, files, legalDocuments, users } from "../../db/schema";
import { db, rawSqlite } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, sessionCookieFor } from "../support/fixtures";
import { rawRequest } from "../support/http";
import { createRegistration } from "../support/registrations";

const { baseUrl } = inject("e2e")!;
const get = (path: string, headers: Record<string, string> = {}) => rawRequest(baseUrl + path, { headers });

/**
 * Asks until an answer comes from the cache (the one after a render must, unless the database
 * changed in between: the server's mail worker marks a mail of an earlier test as sent at any
 * moment, and any write makes every copy old). Five tries; returns the cached answer's text.
 */
async function cached(path: string) {
  return (await cachedAnswers(path, 1))[0].text();
}

/** `count` answers from the cache, asking at most five times as often. */
async function cachedAnswers(path: string, count: number) {
  const hits: Awaited<ReturnType<typeof get>>[] = [];
  for (let asked = 0; asked < 5 * (count + 1) && hits.length < count; asked++) {
    const answer = await get(path);
    if (answer.headers["x-page-cache"] === "hit") hits.push(answer);
  }
  expect(hits.length, `${path}: answers from the cache`).toBe(count);
  return hits;
}

/**
 * Waits until no other connection has written for a moment (the server's mail worker sending
 * the mails of an earlier test), so that a sequence of requests sees one database state.
 */
async function quiet() {
  for (let tries = 0; tries < 50; tries++) {
    const before = dataVersion();
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (dataVersion() === before) return;
  }
  throw new Error("another connection wrote without a pause for 10 s");
}

/** Changes whenever another connection (the server) has committed a write. */
const dataVersion = () => rawSqlite().pragma("data_version", { simple: true });

/**
 * Runs `requests` in a quiet moment; again (at most three times) when the server wrote meanwhile,
 * which makes every copy old.
 */
async function whileQuiet<T>(requests: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    await quiet();
    const before = dataVersion();
    const answers = await requests();
    if (dataVersion() === before || tries === 3) return answers;
  }
}

/** The next anonymous answer after a change: rendered anew, and different. */
async function fresh(path: string, before: string) {
  const after = await get(path);
  expect(after.headers["x-page-cache"], path).toBeUndefined();
  expect(after.text(), path).not.toBe(before);
  return after.text();
}

describe("cache of anonymous pages", () => {
  it("shows every change of an event, its places, files, lead persons and the legal documents in the next answer", async () => {
    const stamp = Date.now();
    let home = await cached("/");
    const camp = createEvent({ title: `Zwischenspeicher ${stamp}`, capacity: 3 });
    home = await fresh("/", home);
    expect(home).toContain(`Zwischenspeicher ${stamp}`);
    const page = `/freizeit/${camp.id}`;

    let detail = await cached(page);
    expect(detail).not.toMatch(/<script/i); // no script, so no nonce to reuse
    db.update(events).set({ title: `Umbenannt ${stamp}` }).where(eq(events.id, camp.id)).run();
    detail = await fresh(page, detail);
    expect(detail).toContain(`Umbenannt ${stamp}`);
    home = await fresh("/", home);
    expect(home).toContain(`Umbenannt ${stamp}`);

    // A place taken.
    expect(detail).toMatch(/Freie Plätze<\/dt><dd>3</);
    const parent = await createUser({ firstName: "Paula" });
    await cached(page);
    createRegistration(camp.id, parent.id);
    detail = await fresh(page, detail);
    expect(detail).toMatch(/Freie Plätze<\/dt><dd>2</);

    // The picture and an attachment.
    await cached(page);
    db.insert(files).values({ key: `bild-${stamp}`, displayName: "lager.webp", mimeType: "image/webp", size: 1, kind: "preview", eventId: camp.id }).run();
    detail = await fresh(page, detail);
    expect(detail).toContain(`/uploads/pictures/bild-${stamp}-480.webp`);
    await cached(page);
    db.insert(files).values({ key: `anhang-${stamp}`, displayName: "Packliste.pdf", mimeType: "application/pdf", size: 1, kind: "attachment", eventId: camp.id }).run();
    detail = await fresh(page, detail);
    expect(detail).toContain("Packliste.pdf");

    // A lead person, then that person's new name.
    const lead = await createUser({ firstName: "Lena", lastName: `Leitwolf${stamp}` });
    await cached(page);
    db.insert(eventOwners).values({ eventId: camp.id, userId: lead.id }).run();
    detail = await fresh(page, detail);
    expect(detail).toContain(`Lena Leitwolf${stamp}`);
    await cached(page);
    db.update(users).set({ lastName: `Fuchs${stamp}` }).where(eq(users.id, lead.id)).run();
    detail = await fresh(page, detail);
    expect(detail).toContain(`Lena Fuchs${stamp}`);

    // The footer's legal documents (removed again: other tests upload their own).
    const hadTerms = db.select().from(legalDocuments).where(eq(legalDocuments.type, "general_terms")).get();
    if (!hadTerms) {
      home = await cached("/");
      const file = db.insert(files).values({ key: `agb-${stamp}`, displayName: "agb.pdf", mimeType: "application/pdf", size: 1, kind: "legal" }).returning().get();
      db.insert(legalDocuments).values({ type: "general_terms", fileId: file.id }).run();
      home = await fresh("/", home);
      expect(home).toMatch(/>AGB</);
      db.delete(legalDocuments).where(eq(legalDocuments.type, "general_terms")).run();
      db.delete(files).where(and(eq(files.id, file.id), eq(files.kind, "legal"))).run();
      home = await fresh("/", home);
      expect(home).not.toMatch(/>AGB</);
    }

    // Deleted by the server itself (a write of the server's own connection).
    const admin = await createUser({ role: "admin" });
    home = await cached("/");
    detail = await cached(page);
    const deleted = await rawRequest(baseUrl + page, {
      method: "POST",
      headers: { Cookie: await sessionCookieFor(admin.id), "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
      body: "intent=delete",
    });
    expect(deleted.status).toBe(302);
    home = await fresh("/", home);
    expect(home).not.toContain(`Umbenannt ${stamp}`);
    expect((await get(page)).status).toBe(404);
  });

  it("never gives a signed-in visitor a cached page, and gives each cached answer its own nonce", async () => {
    const camp = createEvent({ title: `Nur für Gäste ${Date.now()}` });
    const page = `/freizeit/${camp.id}`;
    const anonymous = await cached(page);
    const parent = await createUser({ firstName: "Sina" });
    const signedIn = await get(page, { Cookie: await sessionCookieFor(parent.id) });
    expect(signedIn.headers["x-page-cache"]).toBeUndefined();
    expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    expect(signedIn.text()).not.toBe(anonymous);
    expect(signedIn.text()).toContain(">Logout<");

    await cached(page); // the new session was a write: the copy is rendered anew
    const [a, b] = await cachedAnswers(page, 2);
    const nonce = (h: unknown) => /'nonce-([^']+)'/.exec(String(h))?.[1];
    expect(nonce(a.headers["content-security-policy"])).toBeTruthy();
    expect(nonce(a.headers["content-security-policy"])).not.toBe(nonce(b.headers["content-security-policy"]));
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    expect(a.headers["set-cookie"]).toBeUndefined();
  });

  it("keeps the page when the visitor who caused the render asked for it compressed, as every browser does", async () => {
    const browser = { "Accept-Encoding": "gzip, deflate, br" };
    // A new event each try: its page has no copy yet.
    const [first, again, plain] = await whileQuiet(async () => {
      const page = `/freizeit/${createEvent({ title: `Gepackt ${Date.now()}` }).id}`;
      return [await get(page, browser), await get(page, browser), await get(page)];
    });
    expect(first.headers["x-page-cache"]).toBeUndefined();
    const encoding = first.headers["content-encoding"];
    expect(["br", "gzip"]).toContain(encoding);
    const rendered = (encoding === "br" ? brotliDecompressSync(first.body) : gunzipSync(first.body)).toString("utf8");
    expect(rendered).toContain(`Gepackt`);
    expect(again.headers["x-page-cache"]).toBe("hit");
    expect(again.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(again.body).toString("utf8")).toBe(rendered);
    expect(plain.headers["x-page-cache"]).toBe("hit");
    expect(plain.text()).toBe(rendered);
  });
});
