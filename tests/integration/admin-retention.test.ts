// Admins see on /gott what the next minimisation run removes and can run it now; nobody else.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, jobRuns, registrations } from "../../db/schema";
import { shiftIsoDate } from "~/models/retention.server";
import { action as panelAction, loader as panelLoader } from "~/routes/gott";
import { berlinToday } from "~/lib/dates";
import { db } from "~/services/db.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";
import { createRegistration, registration } from "../support/registrations";
import { body, cookieFrom, get, post, run } from "../support/remix";
import { takeFlash } from "~/services/flash.server";

let registrationId: number;
beforeEach(async () => {
  resetDatabase();
  const parent = await createUser();
  const ended = shiftIsoDate(berlinToday(), { days: -40 });
  const event = createEvent({ dateFrom: ended, dateTo: ended, inDays: -40 });
  registrationId = createRegistration(event.id, parent.id, { status: "accepted" }).id;
  db.update(registrations).set({ specialNeeds: "Asthma" }).where(eq(registrations.id, registrationId)).run();
});

describe("Datensparsamkeit on /gott", () => {
  it("says when the daily run last ran, and that it has not yet where it never did", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const lastRun = async () => (await body<{ retention: { lastRun: unknown } }>(await run(panelLoader, get("/gott?tab=protokoll", { cookie })))).retention.lastRun;
    expect(await lastRun()).toBeNull();
    const at = new Date("2026-11-23T02:00:00.000Z");
    db.insert(jobRuns).values({ name: "datensparsamkeit", lastRunAt: at, lastError: null }).run();
    expect(await lastRun()).toEqual({ at: at.toISOString(), failed: false });
    // A run that failed is no run that deleted (helper review): the panel says so.
    db.update(jobRuns).set({ lastError: "database is locked" }).run();
    expect(await lastRun()).toEqual({ at: at.toISOString(), failed: true });
  });

  it("shows the admin what the next run removes and runs it on request", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const page = await body<{ retention: { preview: Record<string, number> } }>(await run(panelLoader, get("/gott?tab=protokoll", { cookie })));
    expect(page.retention.preview).toEqual({ healthData: 1, comments: 0, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
    const done = await run(panelAction, post("/gott?tab=protokoll", { intent: "run-retention" }, { cookie }));
    expect(done.status).toBe(302);
    // Counted in words that fit the number ('1 Anmeldung', '0 Kommentare').
    const flash = await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(done, "lf_flash")! } }));
    expect(flash?.flash?.message).toBe("1 Anmeldung bereinigt, 0 Kommentare, 0 SEPA-Mandate, 0 Anmeldungen, die Nachweise von 0 Mitarbeiter*innen und 0 E-Mails gelöscht.");
    expect(registration(registrationId).specialNeeds).toBe("");
    expect(db.select().from(auditLog).where(eq(auditLog.action, "retention.run")).get()).toMatchObject({ actorId: admin.id });
  });

  it("runs once when its form is sent twice (a double tap): one protocol entry, the same counts in both answers", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const page = await body<{ retentionKey: string }>(await run(panelLoader, get("/gott?tab=protokoll", { cookie })));
    expect(page.retentionKey).toMatch(/^[\w-]{16,64}$/);
    const send = () => run(panelAction, post("/gott?tab=protokoll", { intent: "run-retention", submissionKey: page.retentionKey }, { cookie }));
    for (const answer of [await send(), await send()]) {
      expect(answer.status).toBe(302);
      const flash = await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(answer, "lf_flash")! } }));
      expect(flash?.flash?.message).toBe("1 Anmeldung bereinigt, 0 Kommentare, 0 SEPA-Mandate, 0 Anmeldungen, die Nachweise von 0 Mitarbeiter*innen und 0 E-Mails gelöscht.");
    }
    expect(db.select().from(auditLog).where(eq(auditLog.action, "retention.run")).all()).toHaveLength(1);
  });

  it("is refused to everybody else: redirected home, nothing removed", async () => {
    const lead = await createUser();
    const response = await run(panelAction, post("/gott", { intent: "run-retention" }, { cookie: await sessionCookieFor(lead.id) }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(registration(registrationId).specialNeeds).toBe("Asthma");
  });
});
