// A newcomer's first start: nothing configured but the port, an empty database.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMode, staleBuild } from "../../scripts/build-state.mjs";
import { rawRequest } from "../support/http";
import { ADMIN, logLines, startOwnServer, type OwnServer } from "../support/server";

let app: OwnServer;
beforeAll(async () => {
  app = await startOwnServer(); // APP_URL unset
});
afterAll(async () => {
  await app?.stop();
});

async function firstMail(timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (existsSync(app.mailDir) ? readdirSync(app.mailDir, { withFileTypes: true }) : []).filter((f) => f.isFile() && f.name.endsWith(".eml"));
    if (files.length > 0) return readFileSync(path.join(app.mailDir, files[0].name), "utf8");
    if (Date.now() > deadline) throw new Error("no mail written");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the first start", () => {
  it("serves the production build of the sources as they are, as npm start does", () => {
    // scripts/build-state.mjs reads the mode from a real build, not only from its test's copy.
    expect(buildMode(readFileSync("build/index.js", "utf8"))).toBe("production");
    expect(staleBuild()).toBeNull();
  });

  it("shows the admin on the empty home page how to create the first event", async () => {
    const page = await rawRequest(`${app.baseUrl}/`, { headers: { Cookie: await app.sessionCookie(ADMIN.email) } });
    const html = page.text();
    expect(html).toContain("Keine Aktivitäten gefunden");
    expect(html).toMatch(/So beginnst du: <a[^>]*href="\/freizeit\/create"[^>]*>Erste Veranstaltung anlegen<\/a>/);
    // A visitor sees no such hint.
    expect((await rawRequest(`${app.baseUrl}/`)).text()).not.toContain("So beginnst du");
  });

  it("warns that the bank account and the footer's links parents see are still examples", () => {
    const warning = logLines(app.stdout()).find((line) => line.level === 40);
    expect(warning?.msg).toMatch(/^Noch Beispielwerte, nicht gesetzt: .*BANK_IBAN.*LINK_IMPRINT.*vor dem echten Betrieb setzen/);
  });

  it("sends mail links to the port the server runs on when APP_URL is unset", async () => {
    const response = await rawRequest(`${app.baseUrl}/forgot`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: ADMIN.email }).toString(),
    });
    expect(response.status).toBeLessThan(400);
    const mail = (await firstMail()).replace(/=\r?\n/g, "");
    expect(mail).toContain(`http://localhost:${app.port}/resetPassword/`);
  });

  // Operations probe: an address of no route was logged as typed ("/Anna-Schmidt").
  it("logs each request with its route's pattern, an address of no route as '/*'", async () => {
    const requestLines = () => logLines(app.stdout()).filter((line) => line.msg === "request");
    const before = requestLines().length;
    for (const address of ["/Anna-Schmidt", "/Emma.Schulz?x=1", "/freizeit/4711", "/legal/%E0%A4%A", "/favicon.ico"]) await rawRequest(`${app.baseUrl}${address}`);
    // Each line is written once its answer is done.
    await expect.poll(() => requestLines().length).toBe(before + 5);
    const routes = requestLines().slice(before).map((line) => `${line.route} ${line.status}`);
    expect(routes.sort()).toEqual(["/* 400", "/* 404", "/* 404", "/favicon.ico 200", "/freizeit/:id 404"]);
    expect(app.stdout() + app.stderr()).not.toMatch(/Anna|Emma|Schulz|Schmidt|could not be decoded/);
  });

  it("shows a generated first password once, as a line of the log, even when LOG_LEVEL leaves out the rest", async () => {
    const quiet = await startOwnServer({ ADMIN_PASSWORD: "", LOG_LEVEL: "error" });
    try {
      await rawRequest(`${quiet.baseUrl}/`);
      const lines = logLines(quiet.stdout());
      // Only the two lines no one can be shown again: no request line, no "läuft auf".
      expect(lines.map((line) => line.msg)).toEqual([`Erster Admin angelegt: ${ADMIN.email}`, expect.stringMatching(/^Passwort \(wird nur dieses eine Mal angezeigt\): \S{12,}$/)]);
      const password = lines[1].msg.split(": ")[1];
      const login = await rawRequest(`${quiet.baseUrl}/login`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: ADMIN.email, password }).toString(),
      });
      expect(login.status).toBe(302);
    } finally {
      await quiet.stop();
    }
  });
});
