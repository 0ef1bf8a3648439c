// The cache of rendered anonymous pages on a real HTTP server and a real SQLite database: what it
// keeps, what it never keeps, and that any committed write (this connection or another) makes
// every copy old.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import compression from "compression";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { db } from "~/services/db.server";
import { answerFromCache, capturePage, clearPageCache, keepRenderedBody, PAGE_CACHE_MAX_BYTES, PAGE_CACHE_TTL_MS, pageCacheUsage } from "~/services/page-cache.server";
import { createEvent } from "../support/events";
import { rawRequest } from "../support/http";

let server: Server;
let base = "";
let renders = 0;
let clock = 1_000_000;
/** What the fake app adds to its answer, by path. */
const extras: Record<string, { setCookie?: boolean; script?: boolean; status?: number; noStore?: boolean; gzippedByApp?: boolean; padding?: number; delayMs?: number }> = {};
/** Paths whose answer is compressed on its way out (by the compression middleware here). */
const throughCompression = new Set<string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const nonce = randomBytes(16).toString("base64");
    const headers = { "Content-Security-Policy": `script-src 'nonce-${nonce}'`, "X-Frame-Options": "DENY" };
    // Rendering takes a moment, so that requests arriving together overlap.
    const render = () => {
      renders++;
      const extra = extras[(req.url ?? "").split("?")[0]] ?? {};
      const titles = db.select({ title: events.title }).from(events).all().map((e) => e.title);
      setTimeout(() => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.setHeader("ETag", `W/"${titles.join("|").length}-${titles.length}"`);
        if (extra.setCookie) res.setHeader("Set-Cookie", "flash=1");
        if (extra.noStore) res.setHeader("Cache-Control", "private, no-store");
        res.statusCode = extra.status ?? 200;
        const html = `<!DOCTYPE html><title>${req.url}</title><ul>${titles.map((t) => `<li>${t}</li>`).join("")}</ul>${extra.script ? `<script nonce="${nonce}"></script>` : ""}${extra.padding ? `<p>${randomBytes(extra.padding).toString("base64")}</p>` : ""}`;
        if (extra.gzippedByApp) {
          res.setHeader("Content-Encoding", "gzip");
          res.end(gzipSync(html));
          return;
        }
        // As the server's adapter does: the body as rendered, for the cache, before it is sent.
        keepRenderedBody(res, Buffer.from(html));
        res.write(html.slice(0, 20));
        res.end(html.slice(20));
      }, extra.delayMs ?? 20);
    };
    const cached = answerFromCache(req, res, { https: false, headers, nonce, now: clock, fallback: render });
    if (cached === true) return;
    const capture = () => {
      if (cached) capturePage(res, cached, () => clock);
      render();
    };
    if (throughCompression.has((req.url ?? "").split("?")[0])) compression({ threshold: 0 })(req as never, res as never, capture);
    else capture();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  clearPageCache();
  renders = 0;
  clock += 10 * PAGE_CACHE_TTL_MS;
});

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(base + path, { headers });

describe("page cache", () => {
  it("answers the second anonymous request from the copy, with fresh security headers", async () => {
    createEvent({ title: "Zeltlager am See" });
    const first = await get("/");
    const second = await get("/");
    expect(renders).toBe(1);
    expect(first.headers["x-page-cache"]).toBeUndefined();
    expect(second.headers["x-page-cache"]).toBe("hit");
    expect(second.text()).toBe(first.text());
    expect(second.text()).toContain("Zeltlager am See");
    expect(second.headers["content-security-policy"]).not.toBe(first.headers["content-security-policy"]);
    expect(second.headers["x-frame-options"]).toBe("DENY");
    expect(second.headers["content-length"]).toBe(String(second.body.length));
  });

  it("a write on this connection makes the copy old", async () => {
    await get("/freizeit/1");
    createEvent({ title: "Segeln auf der Schlei" });
    const after = await get("/freizeit/1");
    expect(after.headers["x-page-cache"]).toBeUndefined();
    expect(after.text()).toContain("Segeln auf der Schlei");
    expect(renders).toBe(2);
  });

  it("a write by another connection (another process, a worker) makes the copy old", async () => {
    await get("/");
    expect((await get("/")).headers["x-page-cache"]).toBe("hit");
    const other = new Database(process.env.DATABASE_PATH!);
    try {
      other.prepare("UPDATE events SET title = 'Umbenannt von nebenan'").run();
    } finally {
      other.close();
    }
    const after = await get("/");
    expect(after.headers["x-page-cache"]).toBeUndefined();
    expect(after.text()).toContain("Umbenannt von nebenan");
  });

  it("a copy lives at most PAGE_CACHE_TTL_MS (pages that change with the clock alone)", async () => {
    await get("/");
    clock += PAGE_CACHE_TTL_MS;
    expect((await get("/")).headers["x-page-cache"]).toBe("hit");
    clock += 1;
    expect((await get("/")).headers["x-page-cache"]).toBeUndefined();
    expect(renders).toBe(2);
  });

  it("never for a cookie, a query string, another address or another method", async () => {
    for (const [path, headers] of [
      ["/", { Cookie: "lf_session=abc" }],
      ["/", { Cookie: "anything=1" }],
      ["/?filter=mine", {}],
      ["/?_data=root", {}],
      ["/freizeit/1?loeschen", {}],
      ["/freizeit/1/", {}],
      ["/freizeit/abc", {}],
      ["/account", {}],
      ["/", { Authorization: "Basic eDp5" }],
    ] as const) {
      await get(path, headers);
      const again = await get(path, headers);
      expect(again.headers["x-page-cache"], path).toBeUndefined();
    }
    const head = await rawRequest(`${base}/`, { method: "HEAD" });
    expect(head.headers["x-page-cache"]).toBeUndefined();
  });

  it("never keeps an answer that sets a cookie, carries a script with its nonce, is not 200 or says no-store", async () => {
    Object.assign(extras, {
      "/freizeit/7": { setCookie: true },
      "/freizeit/8": { script: true },
      "/freizeit/9": { status: 404 },
      "/freizeit/10": { noStore: true },
    });
    for (const path of ["/freizeit/7", "/freizeit/8", "/freizeit/9", "/freizeit/10"]) {
      await get(path);
      expect((await get(path)).headers["x-page-cache"], path).toBeUndefined();
    }
    expect(renders).toBe(8);
  });

  it("renders a page once for requests that arrive together; they all get that answer", async () => {
    createEvent({ title: "Ansturm am Abend" });
    const answers = await Promise.all(Array.from({ length: 10 }, () => get("/freizeit/3")));
    expect(renders).toBe(1);
    expect(new Set(answers.map((a) => a.text())).size).toBe(1);
    expect(answers.filter((a) => a.headers["x-page-cache"] === "hit")).toHaveLength(9);
    expect(new Set(answers.map((a) => a.headers["content-security-policy"])).size).toBe(10);
  });

  it("when the answer they waited for cannot be shared, each waiting request is rendered for itself", async () => {
    extras["/freizeit/11"] = { setCookie: true };
    const answers = await Promise.all(Array.from({ length: 5 }, () => get("/freizeit/11")));
    expect(renders).toBe(5);
    expect(answers.every((a) => a.status === 200 && a.headers["x-page-cache"] === undefined)).toBe(true);
  });

  it("sends the copy gzipped when asked, and 304 for a matching ETag", async () => {
    const first = await get("/");
    const zipped = await get("/", { "Accept-Encoding": "gzip, deflate, br" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(first.text());
    const notAsked = await get("/", { "Accept-Encoding": "gzip;q=0, identity" });
    expect(notAsked.headers["content-encoding"]).toBeUndefined();
    const unchanged = await get("/", { "If-None-Match": String(first.headers.etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(renders).toBe(1);
  });

  it("keeps an answer the compression middleware encoded for the first visitor, never one the app encoded itself", async () => {
    throughCompression.add("/freizeit/21");
    const browser = { "Accept-Encoding": "gzip, deflate" };
    const first = await get("/freizeit/21", browser);
    expect(first.headers["content-encoding"]).toBe("gzip");
    const again = await get("/freizeit/21", browser);
    expect(again.headers["x-page-cache"]).toBe("hit");
    expect(gunzipSync(again.body).toString("utf8")).toBe(gunzipSync(first.body).toString("utf8"));
    expect((await get("/freizeit/21")).text()).toBe(gunzipSync(first.body).toString("utf8"));
    expect(renders).toBe(1);

    extras["/freizeit/22"] = { gzippedByApp: true };
    await get("/freizeit/22", browser);
    const second = await get("/freizeit/22", browser);
    expect(second.headers["x-page-cache"]).toBeUndefined();
    expect(renders).toBe(3);
  });

  it("holds at most PAGE_CACHE_MAX_BYTES, however many Host headers a visitor makes up, and lets old copies go", async () => {
    // Each made-up host is a key of its own; without a bound, 60 large pages would be kept.
    extras["/freizeit/31"] = { padding: 600_000 };
    const browser = { "Accept-Encoding": "gzip" };
    for (let i = 0; i < 60; i++) {
      await get("/freizeit/31", { Host: `h${i}.example`, ...browser });
      const hit = await get("/freizeit/31", { Host: `h${i}.example`, ...browser });
      expect(hit.headers["x-page-cache"]).toBe("hit");
      expect(pageCacheUsage().bytes).toBeLessThanOrEqual(PAGE_CACHE_MAX_BYTES);
    }
    expect(pageCacheUsage().bytes).toBeGreaterThan(PAGE_CACHE_MAX_BYTES / 2);
    expect(renders).toBe(60);
    // Copies past their second are of no use: the next page stored lets them go.
    clock += 2 * PAGE_CACHE_TTL_MS;
    await get("/");
    expect(pageCacheUsage().entries).toBe(1);
    // A page larger than the whole budget is answered, but never kept.
    extras["/freizeit/32"] = { padding: PAGE_CACHE_MAX_BYTES };
    await get("/freizeit/32");
    expect((await get("/freizeit/32")).headers["x-page-cache"]).toBeUndefined();
    expect(pageCacheUsage().bytes).toBeLessThanOrEqual(PAGE_CACHE_MAX_BYTES);
  });

  it("keeps at most 1,000 copies; a copy's gzip version does not push another out", async () => {
    extras["/freizeit/41"] = { delayMs: 0 };
    for (let i = 0; i < 1_001; i++) await get("/freizeit/41", { Host: `n${i}.example` });
    expect(pageCacheUsage().entries).toBe(1_000);
    // The newest copy is asked for gzipped: it grows, the number of copies stays.
    const zipped = await get("/freizeit/41", { Host: "n1000.example", "Accept-Encoding": "gzip" });
    expect(zipped.headers["x-page-cache"]).toBe("hit");
    expect(pageCacheUsage().entries).toBe(1_000);
    // The oldest went when the 1,001st came; the second oldest is still there.
    expect((await get("/freizeit/41", { Host: "n1.example" })).headers["x-page-cache"]).toBe("hit");
    expect(renders).toBe(1_001);
  });

  it("counts the keys too: a Host header of 8 KB per copy stays within the budget", async () => {
    extras["/freizeit/42"] = { delayMs: 0, padding: 8_000 };
    for (let i = 0; i < 1_000; i++) await get("/freizeit/42", { Host: `${"h".repeat(8_000)}${i}.example` });
    expect(pageCacheUsage().bytes).toBeLessThanOrEqual(PAGE_CACHE_MAX_BYTES);
    expect(pageCacheUsage().entries).toBeLessThan(1_000);
  });
});
