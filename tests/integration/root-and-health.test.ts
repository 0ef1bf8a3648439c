import { describe, expect, it } from "vitest";
import { jobRuns, mailOutbox } from "../../db/schema";
import { db } from "~/services/db.server";
import { loader as rootLoader } from "~/root";
import { loader as healthLoader } from "~/routes/healthz";
import { action as logoutAction } from "~/routes/logout";
import { redirectWithFlash } from "~/services/flash.server";
import { getUser } from "~/services/session.server";
import { createUser, sessionCookieFor } from "../support/fixtures";

const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/healthz", () => {
  it("answers 200 ok when the database answers", async () => {
    const response = await healthLoader(args(new Request("http://localhost/healthz")));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  it("reports outbox backlog, the oldest undelivered mail and the scheduler as JSON, without personal data", async () => {
    const now = Date.now();
    db.insert(mailOutbox).values({ recipients: JSON.stringify(["eltern@example.org"]), subject: "Geheim", text: "x", nextAttemptAt: new Date(now - 90_000), createdAt: new Date(now - 90_000) }).run();
    db.insert(mailOutbox).values({ recipients: JSON.stringify(["b@example.org"]), subject: "y", text: "x", nextAttemptAt: new Date(now), status: "failed" }).run();
    db.insert(jobRuns).values({ name: "platzangebote", lastRunAt: new Date(now - 30_000) }).run();
    const response = await healthLoader(args(new Request("http://localhost/healthz", { headers: { Accept: "application/json" } })));
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const report = await response.json();
    expect(report).toMatchObject({
      status: "ok",
      database: "ok",
      outbox: { backlog: 1, failed: 1 },
      scheduler: { ranRecently: true, jobs: { platzangebote: { failing: false } } },
    });
    expect(report.outbox.oldestUndeliveredSeconds).toBeGreaterThanOrEqual(89);
    expect(JSON.stringify(report)).not.toMatch(/example\.org|Geheim/);

    // A mail meant for later (a payment's confirmation waits ten minutes) is waiting, not late.
    db.delete(mailOutbox).run();
    db.insert(mailOutbox).values({ recipients: JSON.stringify(["c@example.org"]), subject: "z", text: "x", nextAttemptAt: new Date(now + 600_000), createdAt: new Date(now - 60_000) }).run();
    const waiting = await (await healthLoader(args(new Request("http://localhost/healthz?format=json")))).json();
    expect(waiting.outbox).toMatchObject({ backlog: 1, oldestUndeliveredSeconds: 0 });
    // A mail that failed once and waits for its next try counts from when it was made.
    db.update(mailOutbox).set({ attempts: 1 }).run();
    const retried = await (await healthLoader(args(new Request("http://localhost/healthz?format=json")))).json();
    expect(retried.outbox.oldestUndeliveredSeconds).toBeGreaterThanOrEqual(59);

    db.update(jobRuns).set({ lastRunAt: new Date(now - 6 * 60_000) }).run();
    const stale = await (await healthLoader(args(new Request("http://localhost/healthz?format=json")))).json();
    expect(stale.scheduler.ranRecently).toBe(false);
  });
});

describe("the root loader", () => {
  it("knows the signed-in user and the footer links", async () => {
    const user = await createUser({ role: "admin", firstName: "Greta" });
    const response = await rootLoader(args(new Request("http://localhost/", { headers: { Cookie: await sessionCookieFor(user.id) } })));
    const data = await response.json();
    expect(data.user).toMatchObject({ id: user.id, firstName: "Greta", role: "admin" });
    expect(Object.keys(data.links)).toHaveLength(6);
    expect(data.flash).toBeNull();
  });

  it("shows a flash message once and clears it", async () => {
    const redirect = await redirectWithFlash("/", { kind: "success", title: "Erfolgreiche Änderung" });
    const cookie = redirect.headers.get("Set-Cookie")!.split(";")[0];
    const response = await rootLoader(args(new Request("http://localhost/", { headers: { Cookie: cookie } })));
    expect((await response.json()).flash).toEqual({ kind: "success", title: "Erfolgreiche Änderung" });
    expect(response.headers.get("Set-Cookie")).toMatch(/lf_flash=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("marks the flash cookie Secure over HTTPS, and only there", async () => {
    const https = new Request("https://lager.example.org/");
    const set = await redirectWithFlash("/", { kind: "success", title: "Gespeichert" }, { request: https });
    expect(set.headers.get("Set-Cookie")).toMatch(/^lf_flash=.*; Secure/);
    const plain = await redirectWithFlash("/", { kind: "success", title: "Gespeichert" }, { request: new Request("http://localhost/") });
    expect(plain.headers.get("Set-Cookie")).not.toContain("Secure");

    const cookie = set.headers.get("Set-Cookie")!.split(";")[0];
    const shown = await rootLoader(args(new Request("https://lager.example.org/", { headers: { Cookie: cookie } })));
    expect(shown.headers.get("Set-Cookie")).toMatch(/^lf_flash=;.*; Secure/);
  });

  it("ignores a forged flash cookie", async () => {
    const response = await rootLoader(args(new Request("http://localhost/", { headers: { Cookie: "lf_flash=eyJ0aXRsZSI6IkhhY2sifQ%3D%3D" } })));
    expect((await response.json()).flash).toBeNull();
  });
});

describe("logout", () => {
  it("ends the server session and goes to /login", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const request = new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } });
    const response = await logoutAction(args(request));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toBeNull();
  });
});
