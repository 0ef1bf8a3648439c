// What travels over the wire: security headers, cross-site refusal, caching, weight.
import { describe, expect, inject, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { events, files } from "../../db/schema";
import { berlinToInstant, berlinToday } from "~/lib/dates";
import { db } from "~/services/db.server";
import { getUser } from "~/services/session.server";
import { storedPath } from "~/services/uploads.server";
import { createEvent } from "../support/events";
import { createUser, sessionCookieFor } from "../support/fixtures";
import { rawRequest } from "../support/http";

const { baseUrl } = inject("e2e")!;

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>) {
  const csp = String(headers["content-security-policy"]);
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["permissions-policy"]).toContain("geolocation=()");
  // Plain http: no HSTS (it is sent only over HTTPS, see deployment.test.ts).
  expect(headers["strict-transport-security"]).toBeUndefined();
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

  it("are compressed once for a signed-in person, finished, with their length", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const zipped = await rawRequest(`${baseUrl}/account`, { headers: { "Accept-Encoding": "gzip, deflate, br", Cookie: cookie } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["content-length"]).toBe(String(zipped.body.length));
    expect(zipped.headers["transfer-encoding"]).toBeUndefined();
    expect(String(zipped.headers.vary)).toMatch(/Accept-Encoding/);
    // rawRequest unzips once: a second layer of gzip would not read as the page.
    expect(zipped.text()).toContain(user.firstName);
    const plain = await rawRequest(`${baseUrl}/account`, { headers: { Cookie: cookie } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text()).toContain(user.firstName);
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

  // Attack probe: a page with scripts said nothing about caching to a visitor without a cookie,
  // the password reset page included, whose address holds its secret token.
  it("tells no one to keep a page with scripts, a visitor's password reset page included", async () => {
    for (const address of ["/login", "/signup", "/resetPassword/kein-gueltiges-token-aber-eine-seite"]) {
      const page = await rawRequest(`${baseUrl}${address}`);
      expect(page.status, address).toBeLessThan(500);
      expect(page.text(), address).toContain("<script");
      expect(page.headers["cache-control"], address).toBe("private, no-store");
    }
  });

  it("answers HEAD with the headers GET has (an uptime monitor or link checker asks so): the ETag, its caching, and 304 when unchanged", async () => {
    // A page no other test changes: an event of its own (event pages ship no script, so they
    // carry an ETag).
    const address = `${baseUrl}/freizeit/${createEvent({ title: "HEAD-Freizeit" }).id}`;
    const page = await rawRequest(address);
    const head = await rawRequest(address, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(page.headers.etag).toMatch(/^W\/".+"$/);
    for (const name of ["etag", "cache-control", "content-type", "vary"]) expect(head.headers[name], name).toBe(page.headers[name]);
    const unchanged = await rawRequest(address, { method: "HEAD", headers: { "If-None-Match": String(page.headers.etag) } });
    expect(unchanged.status).toBe(304);
  });
});

describe("personal answers", () => {
  it("are never stored by a cache: pages and ?_data= answers of a signed-in person", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const event = createEvent({ title: "Cache-Freizeit" });
    const asAdmin = { headers: { Cookie: await sessionCookieFor(admin.id) } };
    const asParent = { headers: { Cookie: await sessionCookieFor(parent.id) } };
    const answers = [
      ["/account", asParent],
      [`/account/${parent.id}`, asAdmin],
      [`/enroll/${event.id}`, asParent],
      ["/", asParent],
      [`/freizeit/${event.id}`, asParent],
      ["/?_data=root", asParent],
      ["/account?_data=routes%2Faccount._index", asParent],
      [`/enroll/${event.id}?_data=routes%2Fenroll.%24eventId`, asParent],
      ["/?_data=routes%2F_index", {}],
    ] as const;
    for (const [path, options] of answers) {
      const response = await rawRequest(`${baseUrl}${path}`, options);
      expect([path, response.status]).toEqual([path, 200]);
      expect([path, response.headers["cache-control"]]).toEqual([path, "private, no-store"]);
      expect([path, response.headers.etag]).toEqual([path, undefined]);
      expect(String(response.headers.vary)).toContain("Cookie");
    }
  });

  it("files of a staff-only event are never stored; public files by the browser, and five minutes by a shared cache", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const hidden = createEvent({ title: "Leitungswochenende", onlyStaffVisible: true, ownerIds: [admin.id] });
    const open = createEvent({ title: "Offene Freizeit" });
    for (const [event, key] of [[hidden, "cache-staff-only.txt"], [open, "cache-public.txt"]] as const) {
      const file = storedPath("attachment", key);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, "Packliste");
      db.insert(files).values({ key, displayName: "Packliste.txt", mimeType: "text/plain", size: 9, kind: "attachment", eventId: event.id }).run();
    }
    const staff = await rawRequest(`${baseUrl}/uploads/attachments/cache-staff-only.txt`, { headers: { Cookie: await sessionCookieFor(admin.id) } });
    expect(staff.status).toBe(200);
    expect(staff.headers["cache-control"]).toBe("private, no-store");
    const everyone = await rawRequest(`${baseUrl}/uploads/attachments/cache-public.txt`, { headers: { Cookie: await sessionCookieFor(parent.id) } });
    expect(everyone.status).toBe(200);
    // A proxy or CDN keeps them five minutes, not the day a browser does: a file a lead deleted, or
    // one of an event made staff-only, is not served from there for long.
    expect(everyone.headers["cache-control"]).toBe("public, max-age=86400, s-maxage=300");
  });

  it("are never stored when they set a cookie, even for a visitor", async () => {
    // Not signed in: /account sends to /login with a flash message, which the next page shows once.
    const redirect = await rawRequest(`${baseUrl}/account`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers["cache-control"]).toBe("private, no-store");
    const flash = String([redirect.headers["set-cookie"]].flat()[0]).split(";")[0];
    const page = await rawRequest(`${baseUrl}/login`, { headers: { Cookie: flash } });
    expect(page.text()).toContain("Sie sind nicht angemeldet");
    expect(page.headers["set-cookie"]).toBeDefined();
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.headers.etag).toBeUndefined();
  });

  it("the sign-up's thanks, which names the address, is never stored (attack probe)", async () => {
    const thanks = await rawRequest(`${baseUrl}/signup?gesendet`);
    expect(thanks.status).toBe(200);
    expect(thanks.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("redirects answered to Remix's browser code (?_data=)", () => {
  it("load a page without scripts as a document, and draw a page with scripts in place (Back after a reload)", async () => {
    const parent = await createUser();
    const event = createEvent({ title: "Umleitungs-Freizeit" });
    const signedIn = { headers: { Cookie: await sessionCookieFor(parent.id) } };
    const answers = [
      // The login of someone signed in goes on to the start page, which has no scripts.
      ["/login?_data=routes%2Flogin", signedIn, "/", "true"],
      // … or to the account page, which has.
      ["/login?redirectTo=%2Faccount&_data=routes%2Flogin", signedIn, "/account", undefined],
      // The enrolment form of someone signed out: the login, which has scripts.
      [`/enroll/${event.id}?_data=routes%2Fenroll.%24eventId`, {}, `/login?redirectTo=%2Fenroll%2F${event.id}`, undefined],
    ] as const;
    for (const [path, options, target, reload] of answers) {
      const response = await rawRequest(`${baseUrl}${path}`, options);
      expect([path, response.status, response.headers["x-remix-redirect"]]).toEqual([path, 204, target]);
      expect([path, response.headers["x-remix-reload-document"]]).toEqual([path, reload]);
    }
  });
});

describe("requests the app does not take", () => {
  it("a malformed address gets a German 400 page, not Express's English one", async () => {
    for (const path of ["/%E0%A4%A", "/freizeit/%", "/build/%zz.css"]) {
      const response = await rawRequest(`${baseUrl}${path}`);
      expect([path, response.status]).toEqual([path, 400]);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      const html = response.text();
      expect(html).toContain("<h1>Ungültige Anfrage</h1>");
      expect(html).not.toMatch(/Bad Request|URIError|at .*\.js/);
      expectSecurityHeaders(response.headers);
    }
  });

  it("the build's folders without a slash get the German 404 page, not express's English 'Redirecting to'", async () => {
    for (const path of ["/build", "/build/_assets", "/build/", "/BUILD"]) {
      const response = await rawRequest(`${baseUrl}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.text()).toMatch(/<h1[^>]*>Seite nicht gefunden<\/h1>/);
      expect(response.text()).not.toMatch(/Redirecting|Cannot GET/);
    }
  });

  it("an address of a list or calendar file that does not exist gets the German 404 page, not a bare 'Nicht gefunden'", async () => {
    const admin = await createUser({ role: "admin" });
    const camp = createEvent({ title: "Zeltlager" });
    const cookie = await sessionCookieFor(admin.id);
    for (const path of [`/freizeit/export/${camp.id}/unbekannt`, `/freizeit/export/999999/teilnehmer`, "/freizeit/999999/kalender.ics", "/kalender/falsch/meine-veranstaltungen.ics"]) {
      const response = await rawRequest(`${baseUrl}${path}`, { headers: { Cookie: cookie } });
      expect([path, response.status]).toEqual([path, 404]);
      expect([path, response.headers["content-type"]]).toEqual([path, "text/html; charset=utf-8"]);
      expect(response.text()).toMatch(/<h1[^>]*>Seite nicht gefunden<\/h1>/);
    }
  });

  it("a Host header no address can have gets the German 400 page, not a logged 500", async () => {
    for (const headers of [{ Host: "[" }, { "X-Forwarded-Host": "[" }] as Record<string, string>[]) {
      const response = await rawRequest(`${baseUrl}/`, { headers });
      expect(response.status).toBe(400);
      expect(response.text()).toContain("<h1>Ungültige Anfrage</h1>");
    }
  });

  it("/resetPassword without a token shows the invalid link's text, not the general 404 (spec: 'Ungültiger Reset-Token.')", async () => {
    for (const path of ["/resetPassword", "/resetPassword/"]) {
      const response = await rawRequest(`${baseUrl}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.text()).toContain("Ungültiger Reset-Token.");
      expect(response.text()).toContain('href="/forgot"');
    }
  });

  it("an HTTP/1.1 request without Host, a tunnel or an Expect node cannot meet get German pages with their headers, not node's bare ones; HTTP/1.0 needs no Host", async () => {
    // Found by an attack probe: node answered it before any handler of ours ran.
    const { hostname, port } = new URL(baseUrl);
    const ask = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.end(request));
        let answer = "";
        socket.on("data", (chunk) => (answer += chunk));
        socket.on("close", () => resolve(answer));
        socket.on("error", reject);
      });
    const missing = await ask("GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(missing).toMatch(/^HTTP\/1\.1 400 /);
    expect(missing).toContain("<h1>Ungültige Anfrage</h1>");
    expect(missing).toContain("Content-Security-Policy: ");
    expect(await ask("GET / HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 /);
    // Two Host lines: RFC 9112 asks for a 400 as for none (attack probe: node kept the first).
    const twice = await ask(`GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
    expect(twice).toMatch(/^HTTP\/1\.1 400 /);
    expect(twice).toContain("<h1>Ungültige Anfrage</h1>");
    // A tunnel is not taken: the German 405, not a connection closed without a word.
    const tunnel = await ask(`CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n`);
    expect(tunnel).toMatch(/^HTTP\/1\.1 405 /);
    expect(tunnel).toContain("Content-Security-Policy: ");
    // An expectation other than 100-continue: the German 417, not node's bare status line.
    const expectation = await ask(`POST /login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nExpect: 200-ok\r\nContent-Length: 0\r\n\r\n`);
    expect(expectation).toMatch(/^HTTP\/1\.1 417 /);
    expect(expectation).toContain("<h1>Anfrage nicht möglich</h1>");
    expect(expectation).toContain("Content-Security-Policy: ");
    expect(expectation).toContain("Connection: close");
  });

  it("a Host or X-Forwarded-Host with a user or an impossible port, or a full address as the target, gets the German 400, not a logged 500", async () => {
    const cases: { headers?: Record<string, string>; path?: string }[] = [
      { headers: { Host: "evil@127.0.0.1" } },
      { headers: { Host: "127.0.0.1/x" } },
      { headers: { "X-Forwarded-Host": "localhost:99999" } },
      { headers: { "X-Forwarded-Host": "evil@x" } },
      { path: "http://evil.example/" },
      { path: "freizeit/1" },
    ];
    for (const { headers, path } of cases) {
      const response = await rawRequest(`${baseUrl}/`, { headers, path });
      expect([headers, path, response.status]).toEqual([headers, path, 400]);
      expect(response.text()).toContain("<h1>Ungültige Anfrage</h1>");
    }
  });

  it("a form post from the app's own page with an X-Forwarded-Host of another spelling or host is answered by the app, not with Remix's empty 500", async () => {
    // Attack probe: Remix compared the Origin with X-Forwarded-Host byte for byte (trusted or not,
    // case and port included) and answered an empty 500 with a logged stack trace.
    const origin = new URL(baseUrl).origin;
    const host = new URL(baseUrl).host;
    for (const forwarded of ["evil.example", host.toUpperCase(), new URL(baseUrl).hostname]) {
      const response = await rawRequest(`${baseUrl}/forgot`, {
        method: "POST",
        headers: { Origin: origin, "X-Forwarded-Host": forwarded, "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=niemand%40example.org",
      });
      expect([forwarded, response.status]).toEqual([forwarded, 302]);
    }
  });

  it("?_data= naming no route gets a German answer, not Remix's 'Unexpected Server Error'", async () => {
    for (const path of ["/?_data=foo", "/freizeit/1?_data=routes%2Fnonexistent", "/?_data=constructor"]) {
      const response = await rawRequest(`${baseUrl}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.text()).toBe('{"message":"Diese Daten gibt es nicht."}');
    }
  });

  it("other methods than GET, HEAD and POST get a German 405 with Allow", async () => {
    for (const method of ["PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "OPTIONS"]) {
      const response = await rawRequest(`${baseUrl}/`, { method });
      expect([method, response.status]).toEqual([method, 405]);
      expect(response.headers.allow).toBe("GET, HEAD, POST");
      expect(response.text()).toContain("Anfrage nicht möglich");
    }
    // Drawn like the app's pages: its stylesheet (which loads) and its header.
    const page = (await rawRequest(`${baseUrl}/`, { method: "PUT" })).text();
    expect(page).toContain('<header class="site-header">');
    const css = /<link rel="stylesheet" href="(\/build\/_assets\/app-[A-Z0-9]+\.css)">/.exec(page)?.[1];
    expect(css).toBeDefined();
    expect((await rawRequest(`${baseUrl}${css}`)).status).toBe(200);
  });

  it("a POST to a page without a form shows German words, never Remix's English text", async () => {
    const admin = await createUser({ role: "admin" });
    for (const [path, cookie] of [["/", ""], ["/", await sessionCookieFor(admin.id)], ["/gibt-es-nicht", ""]] as const) {
      const response = await rawRequest(`${baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
        body: "a=b",
      });
      const html = response.text();
      expect([path, response.status]).toEqual([path, path === "/" ? 405 : 404]);
      expect(html).not.toContain("You made a POST request");
      expect(html).not.toMatch(/did not provide an `action`|no way to handle/);
      expect(html).toContain(path === "/" ? "Anfrage nicht möglich" : "Seite nicht gefunden");
      // Who is signed in is not known here: no Login button for a signed-in admin.
      if (cookie) expect(html).not.toContain(">Login<");
    }
  });
});

describe("the spec's own error texts", () => {
  it("the edit screen of an event that cannot be loaded says the spec's 'Es gab ein Problem bei der Abfrage der Freizeit …' (part 1 §8)", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const camp = createEvent({ inDays: 20, ownerIds: [admin.id] });
    for (const [path, userId] of [["/freizeit/edit/999999", admin.id], [`/freizeit/edit/${camp.id}`, parent.id]] as const) {
      const response = await rawRequest(`${baseUrl}${path}`, { headers: { Cookie: await sessionCookieFor(userId) } });
      const visible = response.text().replace(/<script\b[\s\S]*?<\/script>/g, "").replace(/<[^>]*>/g, " ");
      expect([path, response.status]).toEqual([path, 404]);
      expect(visible).toContain("Es gab ein Problem bei der Abfrage der Freizeit. Versuchen Sie es später erneut.");
      expect(visible).toContain("Zur Startseite");
    }
  });
});

describe("errors Remix makes itself", () => {
  it("a POST to a page with its own error view shows German words, not Remix's English text or route files", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    for (const path of ["/anmeldung/1", "/freizeit/participants/1/notfall"]) {
      const response = await rawRequest(`${baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: "a=b",
      });
      // What the person sees: the page without its scripts (Remix's handoff data for the browser).
      const visible = response.text().replace(/<script\b[\s\S]*?<\/script>/g, "").replace(/<[^>]*>/g, " ");
      expect([path, response.status]).toEqual([path, 405]);
      expect(visible).not.toMatch(/You made a POST|did not provide|routes\//);
      expect(visible).toContain("Anfrage nicht möglich");
    }
  });

  it("a POST to a file or feed address gets the German 405 page, and a ?_data= of another page German JSON", async () => {
    for (const path of ["/healthz", "/legal/agb", "/freizeit/1/kalender.ics"]) {
      const response = await rawRequest(`${baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "a=b",
      });
      expect([path, response.status]).toEqual([path, 405]);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.text()).toContain("<h1>Anfrage nicht möglich</h1>");
      expect(response.text()).not.toContain("Unexpected Server Error");
    }
    const data = await rawRequest(`${baseUrl}/?_data=routes%2Fgott`);
    expect(data.status).toBe(403);
    expect(data.headers["x-remix-error"]).toBe("yes");
    expect(JSON.parse(data.text())).toEqual({ message: "Diese Anfrage ist nicht erlaubt." });
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
    const { id } = createEvent({ title: `Ohne Skript ${Date.now()}` });
    const page = await rawRequest(`${baseUrl}/freizeit/${id}`);
    expect(page.status).toBe(200);
    expect(page.text()).not.toContain("<script");
  });
});
