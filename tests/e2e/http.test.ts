// What travels over the wire: security headers, cross-site refusal, caching, weight.
import { describe, expect, inject, it } from "vitest";
import { events } from "../../db/schema";
import { berlinToInstant, berlinToday } from "~/lib/dates";
import { db } from "~/services/db.server";
import { getUser } from "~/services/session.server";
import { createUser, sessionCookieFor } from "../support/fixtures";
import { rawRequest } from "../support/http";

const { baseUrl } = inject("e2e")!;

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>) {
  const csp = String(headers["content-security-policy"]);
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
}

function stylesheetHref(html: string) {
  const href = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
  expect(href).toMatch(/^\/build\/_assets\/app-[A-Z0-9]+\.css$/);
  return href!;
}

describe("responses", () => {
  it("carry the security headers on pages, files and health checks", async () => {
    const page = await rawRequest(`${baseUrl}/`);
    expectSecurityHeaders(page.headers);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    const css = await rawRequest(`${baseUrl}${stylesheetHref(page.text())}`);
    expectSecurityHeaders(css.headers);
    expectSecurityHeaders((await rawRequest(`${baseUrl}/healthz`)).headers);
    expectSecurityHeaders((await rawRequest(`${baseUrl}/favicon.svg`)).headers);
    expectSecurityHeaders((await rawRequest(`${baseUrl}/nicht-da`)).headers);
  });

  it("use a new nonce every time", async () => {
    const nonce = async () => /'nonce-([^']+)'/.exec(String((await rawRequest(`${baseUrl}/`)).headers["content-security-policy"]))?.[1];
    expect(await nonce()).not.toBe(await nonce());
  });

  it("answer /healthz with ok", async () => {
    const response = await rawRequest(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(response.text()).toBe("ok");
  });

  it("are compressed", async () => {
    const response = await rawRequest(`${baseUrl}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers["content-encoding"]).toBe("gzip");
  });
});

describe("form posts from another site", () => {
  it("are refused before any action runs", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const forged = await rawRequest(`${baseUrl}/logout`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(forged.status).toBe(403);
    expect(forged.text()).toContain("Anfrage abgelehnt");
    const fetchSite = await rawRequest(`${baseUrl}/logout`, {
      method: "POST",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
    });
    expect(fetchSite.status).toBe(403);
    // The logout action did not run: the session is still there.
    expect(await getUser(new Request(baseUrl, { headers: { Cookie: cookie } }))).not.toBeNull();

    const own = await rawRequest(`${baseUrl}/logout`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: baseUrl, "Sec-Fetch-Site": "same-origin" },
    });
    expect(own.status).toBe(302);
    expect(await getUser(new Request(baseUrl, { headers: { Cookie: cookie } }))).toBeNull();
  });
});

describe("caching", () => {
  it("keeps fingerprinted assets for a year and revalidates pages by ETag", async () => {
    const page = await rawRequest(`${baseUrl}/`);
    const css = await rawRequest(`${baseUrl}${stylesheetHref(page.text())}`);
    expect(css.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(page.headers["cache-control"]).toBe("private, no-cache");
    const again = await rawRequest(`${baseUrl}/`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});

describe("the home page on a weak connection", () => {
  it("ships no JavaScript and stays under 30 KB gzipped with 50 events", async () => {
    const today = berlinToday();
    const rows = Array.from({ length: 50 }, (_, i) => {
      const date = new Date(`${today}T12:00:00Z`);
      date.setUTCDate(date.getUTCDate() + 10 + i);
      const dateFrom = date.toISOString().slice(0, 10);
      return {
        title: `Budget-Freizeit ${String(i + 1).padStart(2, "0")} am Plöner See mit Kanu und Zelt`,
        description:
          "Gemeinsam draußen sein, Lagerfeuer, Spiele und neue Freundschaften: Unser erfahrenes Team betreut die Kinder rund um die Uhr. " +
          "Unterbringung in Zelten, Vollverpflegung inklusive. Bitte Schlafsack, Regenjacke und feste Schuhe mitbringen. ".repeat(2),
        dateFrom,
        timeFrom: "10:00",
        startsAt: berlinToInstant(dateFrom, "10:00"),
        location: "Zeltplatz Koppelsberg, Plön",
      };
    });
    db.insert(events).values(rows).run();

    const page = await rawRequest(`${baseUrl}/`, { headers: { "Accept-Encoding": "gzip" } });
    const html = page.text();
    expect(html.match(/<h3><a href="\/freizeit\/\d+">Budget-Freizeit \d\d/g)?.length).toBe(50);
    expect(html).not.toContain("<script");
    const css = await rawRequest(`${baseUrl}${stylesheetHref(html)}`, { headers: { "Accept-Encoding": "gzip" } });
    const total = page.body.length + css.body.length;
    expect(total).toBeLessThanOrEqual(30 * 1024);
  });

  it("event pages ship no JavaScript either", async () => {
    const id = db.select({ id: events.id }).from(events).limit(1).get()!.id;
    const page = await rawRequest(`${baseUrl}/freizeit/${id}`);
    expect(page.status).toBe(200);
    expect(page.text()).not.toContain("<script");
  });
});
