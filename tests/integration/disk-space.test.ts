// A full disk must not take the database with it: when less than UPLOADS_MIN_FREE_MB would be left
// after a file, the file is refused in German and nothing of its form is stored, while forms
// without files (an enrolment, a sign-up) go on. /healthz says so to a monitoring tool.
import { existsSync, readdirSync, rmSync, statfsSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { events, files, mailOutbox } from "../../db/schema";
import { action as createAction } from "~/routes/freizeit.create";
import { action as panelAction } from "~/routes/gott";
import { action as mailAction } from "~/routes/freizeit.sendEmails.$id";
import { loader as healthLoader } from "~/routes/healthz";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent, multipartPost, pngBytes, validEventFields } from "../support/events";
import { body, run } from "../support/remix";

// More than any disk this runs on has free: every file is refused.
vi.hoisted(() => {
  process.env.UPLOADS_MIN_FREE_MB = "9000000";
});

const DISK_LOW = "Auf dem Server ist kaum noch Speicherplatz frei, deshalb wurde die Datei nicht gespeichert. Bitte wenden Sie sich an die Administration.";

beforeEach(() => {
  resetDatabase();
  rmSync(settings().uploadsDir, { recursive: true, force: true });
});

function leftOnDisk() {
  const dir = settings().uploadsDir;
  return ["pictures", "attachments", ".tmp"].flatMap((sub) => (existsSync(path.join(dir, sub)) ? readdirSync(path.join(dir, sub)) : []));
}

describe("when the disk is nearly full", () => {
  it("refuses a legal document in the admin panel's words ('du'), and stores nothing", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const response = await run(panelAction, multipartPost("/gott", { intent: "legal" }, { agb: [{ name: "AGB.pdf", bytes: pdf }] }, cookie));
    expect(response.status).toBe(507);
    const answer = await body<{ legal: { messages: Record<string, string> } }>(response);
    expect(answer.legal.messages.agb).toBe("Auf dem Server ist kaum noch Speicherplatz frei, deshalb wurde die Datei nicht gespeichert. Bitte wende dich an die Person, die den Server betreut.");
    expect(db.select().from(files).all()).toEqual([]);
  });

  it("refuses an event's files with a message at each file, and stores nothing of the form", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const response = await run(
      createAction,
      multipartPost("/freizeit/create", validEventFields(), { picture: [{ name: "lager.png", bytes: pngBytes() }], attachments: [{ name: "Packliste.txt", bytes: Buffer.from("Schlafsack\n") }] }, cookie),
    );
    expect(response.status).toBe(507);
    const answer = await body<{ fileErrors: Record<string, string>; alert: { title: string; message: string } }>(response);
    expect(answer.fileErrors.picture).toBe(DISK_LOW);
    // Nothing the person typed is wrong: the summary says what happened, not 'nicht valide'.
    expect(answer.alert).toEqual({ title: "Dateien nicht gespeichert", message: DISK_LOW });
    expect(Object.values(answer.fileErrors).filter((m) => m === DISK_LOW)).toHaveLength(2);
    expect(db.select().from(events).all()).toHaveLength(0);
    expect(db.select().from(files).all()).toHaveLength(0);
    expect(leftOnDisk()).toEqual([]);
  });

  it("the event e-mail's attachments too: the message at the file, the typed name kept, no mail queued", async () => {
    const admin = await createUser({ role: "admin" });
    const event = createEvent({ ownerIds: [admin.id] });
    const args = multipartPost(`/freizeit/sendEmails/${event.id}`, { intent: "send", subject: "Packliste", text: "Bitte mitbringen", attachmentName1: "Packliste" }, { attachment1: [{ name: "p.txt", bytes: Buffer.from("Schlafsack\n") }] }, await sessionCookieFor(admin.id));
    const response = await run(mailAction, { ...args, params: { id: String(event.id) } });
    expect(response.status).toBe(507);
    const answer = await body<{ fileErrors: Record<string, string>; alert: { title: string; message: string }; values: { attachmentNames: string[] } }>(response);
    expect(answer.fileErrors.attachment1).toBe(DISK_LOW);
    expect(answer.alert).toEqual({ title: "Dateien nicht gespeichert", message: DISK_LOW });
    expect(answer.values.attachmentNames[0]).toBe("Packliste");
    expect(db.select().from(mailOutbox).all()).toHaveLength(0);
    expect(leftOnDisk()).toEqual([]);
  });

  it("a form without files is saved as before", async () => {
    const admin = await createUser({ role: "admin" });
    const response = await run(createAction, multipartPost("/freizeit/create", validEventFields(), {}, await sessionCookieFor(admin.id)));
    expect(response.status).toBe(302);
    expect(db.select().from(events).all()).toHaveLength(1);
  });

  it("/healthz reports the free space of the uploads' disk and that it is low", async () => {
    const report = await (await healthLoader({ request: new Request("http://localhost/healthz?format=json"), params: {}, context: {} })).json();
    const stats = statfsSync(path.dirname(settings().uploadsDir));
    expect(report.disk.low).toBe(true);
    expect(report.disk.freeMb).toBeGreaterThan(0);
    expect(Math.abs(report.disk.freeMb - Math.floor((stats.bavail * stats.bsize) / 2 ** 20))).toBeLessThan(50);
    expect(report.disk.minFreeMb).toBe(9_000_000);
  });

  it("says 'low' exactly when a file of the largest size would be refused (the same rule)", async () => {
    const { leavesTooLittle } = await import("~/services/disk-space.server");
    const MB = 1024 * 1024;
    // 3 MB more free than the reserve: a 10 MB attachment would eat into it.
    expect(leavesTooLittle(515 * MB, 10 * MB, 512 * MB)).toBe(true);
    expect(leavesTooLittle(522 * MB, 10 * MB, 512 * MB)).toBe(false);
  });
});
