// Backups under write load: every registration acknowledged before the backup began is in it,
// the restored database is intact, a damaged backup and a running app are refused.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { settings } from "~/services/env.server";
import { createUser, resetDatabase } from "../support/fixtures";
import { createEvent } from "../support/events";
import { createRegistration } from "../support/registrations";

// What a volunteer reads when the app still runs: how to stop it, and to try again then.
const STOP_FIRST =
  "Bitte die App zuerst beenden (Strg-C im Fenster, in dem sie läuft, oder systemctl stop … oder docker stop …; README, „Back-ups“) und dann noch einmal wiederherstellen.";

function npmScript(script: "backup" | "restore", dir: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [`scripts/${script}.mjs`, dir], { env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

beforeEach(() => resetDatabase());

/** A backup of the test database, and settings for a place with nothing in it yet to restore it to. */
async function backupAndEmptyPlace() {
  mkdirSync(settings().uploadsDir, { recursive: true });
  const target = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
  expect((await npmScript("backup", target)).code).toBe(0);
  const place = mkdtempSync(path.join(tmpdir(), "lf-restore-"));
  return { target, env: { DATABASE_PATH: path.join(place, "app.db"), UPLOADS_DIR: path.join(place, "uploads") } };
}

/** A process that holds the app's lock on `databasePath` as a running server does (scripts/running-app.mjs). */
async function lockHolder(databasePath: string) {
  const holder = spawn(process.execPath, [
    "--input-type=module",
    "-e",
    `import { takeAppLock } from "./scripts/running-app.mjs"; const lock = takeAppLock(${JSON.stringify(databasePath)}); console.log(lock ? "held" : "busy"); setInterval(() => {}, 1000);`,
  ]);
  const said = await new Promise<string>((resolve) => holder.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  expect(said).toBe("held");
  return holder;
}

describe("npm run backup and restore", () => {
  it("under write load: the backup holds every acknowledged registration and restores intact", async () => {
    const parent = await createUser();
    const eventId = createEvent().id;
    mkdirSync(path.join(settings().uploadsDir, "attachments"), { recursive: true });
    writeFileSync(path.join(settings().uploadsDir, "attachments", "packliste.pdf"), "%PDF-1.4 packliste");
    for (let i = 0; i < 50; i++) createRegistration(eventId, parent.id);

    // Keep writing while the backup runs (each write is acknowledged once it returns).
    const acknowledged: number[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        acknowledged.push(createRegistration(eventId, parent.id).id);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = [...acknowledged];
    const target = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    const made = await npmScript("backup", target);
    writing = false;
    await writer;
    expect(made.code, made.output).toBe(0);
    expect(made.output).toMatch(/^Gesichert: .* nach .* \(2 Dateien, Sicherung vom \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr\)\./);

    const backedUp = new Database(path.join(target, "lagerfeuer.db"), { readonly: true });
    const ids = new Set((backedUp.prepare("select id from registrations").all() as { id: number }[]).map((r) => r.id));
    expect(backedUp.pragma("integrity_check", { simple: true })).toBe("ok");
    backedUp.close();
    for (const id of before) expect(ids.has(id)).toBe(true);
    expect(ids.size).toBeGreaterThanOrEqual(50 + before.length);

    // Restore into a fresh place.
    const place = mkdtempSync(path.join(tmpdir(), "lf-restore-"));
    const env = { DATABASE_PATH: path.join(place, "data", "neu.db"), UPLOADS_DIR: path.join(place, "uploads") };
    const restored = await npmScript("restore", target, env);
    expect(restored.code, restored.output).toBe(0);
    const db = new Database(env.DATABASE_PATH, { readonly: true });
    expect((db.prepare("select count(*) as n from registrations").get() as { n: number }).n).toBe(ids.size);
    db.close();
    expect(readFileSync(path.join(env.UPLOADS_DIR, "attachments", "packliste.pdf"), "utf8")).toBe("%PDF-1.4 packliste");
  });

  it("refuses a damaged backup and a running app, and says why", async () => {
    const { target, env } = await backupAndEmptyPlace();

    // Another process holds the app's lock on the database: "the app runs", named by its pid file.
    const app = await lockHolder(env.DATABASE_PATH);
    try {
      writeFileSync(`${env.DATABASE_PATH}.pid`, String(app.pid));
      const running = await npmScript("restore", target, env);
      expect(running.code).toBe(1);
      expect(running.output).toContain(`Die App läuft (Prozess ${app.pid}) und hält die Datenbank, oder eine andere Wiederherstellung läuft. ${STOP_FIRST}`);
      expect(existsSync(env.DATABASE_PATH)).toBe(false);
      // In another container sharing the volume the pid file names a process of this one (or
      // none): the lock still tells.
      writeFileSync(`${env.DATABASE_PATH}.pid`, "1");
      expect((await npmScript("restore", target, env)).output).toContain("Die App läuft (Prozess 1)");
      rmSync(`${env.DATABASE_PATH}.pid`);
      expect((await npmScript("restore", target, env)).output).toContain(`Die App läuft und hält die Datenbank, oder eine andere Wiederherstellung läuft. ${STOP_FIRST}`);
      expect(existsSync(env.DATABASE_PATH)).toBe(false);
    } finally {
      app.kill("SIGKILL");
      await new Promise((resolve) => app.once("exit", resolve));
    }

    writeFileSync(`${env.DATABASE_PATH}.pid`, "999999999"); // left by a crash
    writeFileSync(path.join(target, "lagerfeuer.db"), "kaputt");
    const damaged = await npmScript("restore", target, env);
    expect(damaged.code).toBe(1);
    expect(damaged.output).toContain("Die Sicherung ist beschädigt: lagerfeuer.db hat eine andere Prüfsumme.");
    expect(existsSync(env.DATABASE_PATH)).toBe(false);
  });

  it("restores after the app was killed, whatever its pid file names now", async () => {
    const { target, env } = await backupAndEmptyPlace();
    const app = await lockHolder(env.DATABASE_PATH);
    app.kill("SIGKILL"); // the kernel lets go of its lock
    await new Promise((resolve) => app.once("exit", resolve));
    const other = spawn("sleep", ["30"]); // its number, after a restart, belongs to another program
    try {
      writeFileSync(`${env.DATABASE_PATH}.pid`, String(other.pid));
      const restored = await npmScript("restore", target, env);
      expect(restored.code, restored.output).toBe(0);
      expect(existsSync(env.DATABASE_PATH)).toBe(true);
    } finally {
      other.kill();
    }
  });

  // Operations review: SQLite's backup starts again whenever another connection writes between
  // its steps; in steps of 100 pages a database of some megabytes written to every few
  // milliseconds (mail marks, sign-ins) was never finished.
  it("finishes while another connection writes all the time", async () => {
    const { backup } = await import("../../scripts/backup-lib.mjs");
    const place = mkdtempSync(path.join(tmpdir(), "lf-busy-"));
    const databasePath = path.join(place, "app.db");
    const writer = new Database(databasePath);
    writer.pragma("journal_mode = WAL");
    writer.exec("create table pad (b blob); create table ticks (t integer)");
    const pad = writer.prepare("insert into pad values (randomblob(100000))");
    for (let i = 0; i < 80; i++) pad.run(); // 8 MB, some 2,000 pages
    mkdirSync(path.join(place, "uploads"));
    const tick = writer.prepare("insert into ticks values (?)");
    const busy = setInterval(() => tick.run(Date.now()), 1);
    try {
      const done = await Promise.race([
        backup(path.join(place, "sicherung"), { DATABASE_PATH: databasePath, UPLOADS_DIR: path.join(place, "uploads") } as unknown as NodeJS.ProcessEnv),
        new Promise((resolve) => setTimeout(() => resolve("zu langsam"), 10_000)),
      ]);
      expect(done).not.toBe("zu langsam");
    } finally {
      clearInterval(busy);
      writer.close();
    }
    const copy = new Database(path.join(place, "sicherung", "lagerfeuer.db"), { readonly: true });
    expect(copy.prepare("select count(*) as n from pad").get()).toEqual({ n: 80 });
    copy.close();
  }, 20_000);

  it("needs a target and refuses a folder that is not empty", async () => {
    expect((await npmScript("backup", "")).code).toBe(2);
    const full = mkdtempSync(path.join(tmpdir(), "lf-voll-"));
    writeFileSync(path.join(full, "x"), "x");
    const refused = await npmScript("backup", full);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("ist nicht leer");
    // Inside the uploads, every later backup would hold the earlier ones (operations review).
    mkdirSync(settings().uploadsDir, { recursive: true });
    const inside = await npmScript("backup", path.join(settings().uploadsDir, "sicherung"));
    expect(inside.code).toBe(1);
    expect(inside.output).toContain("darf nicht im Upload-Ordner");
    expect(existsSync(path.join(settings().uploadsDir, "sicherung"))).toBe(false);
    // A system error in German, as a volunteer can act on it, no stack trace.
    mkdirSync(settings().uploadsDir, { recursive: true });
    const onFile = await npmScript("backup", path.join(full, "x", "sicherung"));
    expect(onFile.code).toBe(1);
    expect(onFile.output.trim()).toBe(`${path.join(full, "x", "sicherung")} ist kein Ordner.`);
  });

  it("keeps children's data to the app's user, refuses a backup without the uploads folder, and names what it saved", async () => {
    mkdirSync(settings().uploadsDir, { recursive: true });
    const target = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    const made = await npmScript("backup", target);
    expect(made.code, made.output).toBe(0);
    expect(made.output).toContain(settings().databasePath);
    for (const file of [target, path.join(target, "lagerfeuer.db"), path.join(target, "manifest.json")]) {
      expect((statSync(file).mode & 0o077).toString(8), file).toBe("0");
    }
    const nowhere = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    const missing = await npmScript("backup", nowhere, { UPLOADS_DIR: path.join(tmpdir(), "gibt-es-nicht-lf") });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("Kein Upload-Ordner unter");
    expect(existsSync(nowhere)).toBe(false);
  });

  it("restores into the uploads folder as it is (a Docker volume cannot be removed), database last, and writes nothing into the backup", async () => {
    const { target, env } = await backupAndEmptyPlace();
    mkdirSync(path.join(env.UPLOADS_DIR, "attachments"), { recursive: true });
    writeFileSync(path.join(env.UPLOADS_DIR, "attachments", "alt.pdf"), "alt");
    const folder = statSync(env.UPLOADS_DIR).ino;
    const before = readdirSync(target).sort();
    // The database it replaces stays beside it: a wrong backup can be undone.
    const old = new Database(env.DATABASE_PATH);
    old.exec("CREATE TABLE alt (x); INSERT INTO alt VALUES ('vorher')");
    old.close();
    const restored = await npmScript("restore", target, env);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain(env.DATABASE_PATH);
    expect(restored.output).toContain(`${env.DATABASE_PATH}.vor-wiederherstellung`);
    const kept = new Database(`${env.DATABASE_PATH}.vor-wiederherstellung`, { readonly: true });
    expect(kept.prepare("SELECT x FROM alt").pluck().get()).toBe("vorher");
    kept.close();
    expect(statSync(env.UPLOADS_DIR).ino).toBe(folder);
    expect(existsSync(path.join(env.UPLOADS_DIR, "attachments", "alt.pdf"))).toBe(false);
    expect(readdirSync(target).sort()).toEqual(before);
    // The files it replaces stay too, in a folder of the uploads folder the app never serves.
    const keptUploads = path.join(env.UPLOADS_DIR, ".vor-wiederherstellung");
    expect(restored.output).toContain(keptUploads);
    expect(readFileSync(path.join(keptUploads, "attachments", "alt.pdf"), "utf8")).toBe("alt");
    // A backup leaves them out; the next restore keeps only what it replaces.
    const again = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    expect((await npmScript("backup", again, env)).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(again, "manifest.json"), "utf8")).files.some((f: { file: string }) => f.file.includes("vor-wiederherstellung"))).toBe(false);
    writeFileSync(path.join(env.UPLOADS_DIR, "neu.txt"), "neu");
    expect((await npmScript("restore", target, env)).code).toBe(0);
    expect(existsSync(path.join(keptUploads, "attachments", "alt.pdf"))).toBe(false);
    expect(readFileSync(path.join(keptUploads, "neu.txt"), "utf8")).toBe("neu");
  });

  it("refuses a manifest that is not one, or names a file outside the backup, and a database of another app", async () => {
    const { target, env } = await backupAndEmptyPlace();
    const manifestFile = path.join(target, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));

    writeFileSync(manifestFile, "{");
    const unreadable = await npmScript("restore", target, env);
    expect(unreadable.code).toBe(1);
    expect(unreadable.output).toContain("Die Sicherung ist beschädigt: manifest.json ist nicht lesbar.");

    const outside = path.join(path.dirname(env.UPLOADS_DIR), "draussen.txt");
    writeFileSync(path.join(target, "x.txt"), "x");
    const sha = (await import("node:crypto")).createHash("sha256").update("x").digest("hex");
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, files: [...manifest.files, { file: "uploads/../../draussen.txt", size: 1, sha256: sha }] }));
    const escaping = await npmScript("restore", target, env);
    expect(escaping.code).toBe(1);
    expect(escaping.output).toContain("Die Sicherung ist beschädigt: uploads/../../draussen.txt liegt nicht in der Sicherung.");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(env.DATABASE_PATH)).toBe(false);

    // A SQLite file of another app with a fitting manifest: never put in place of ours.
    const foreign = new Database(path.join(target, "lagerfeuer.db"));
    foreign.exec("DROP TABLE IF EXISTS users; CREATE TABLE IF NOT EXISTS notizen (text TEXT)");
    foreign.close();
    const db = manifest.files.find((f: { file: string }) => f.file === "lagerfeuer.db");
    const dbSha = (await import("node:crypto")).createHash("sha256").update(readFileSync(path.join(target, "lagerfeuer.db"))).digest("hex");
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, files: manifest.files.map((f: { file: string }) => (f === db ? { ...db, sha256: dbSha } : f)) }));
    const other = await npmScript("restore", target, env);
    expect(other.code).toBe(1);
    expect(other.output).toContain("ist keine Sicherung von Lagerfeuer");
    expect(existsSync(env.DATABASE_PATH)).toBe(false);
  });

  it("a file deleted while the backup runs, after the database's snapshot, is still in the backup that names it", async () => {
    const { backup } = await import("../../scripts/backup-lib.mjs");
    const pictures = path.join(settings().uploadsDir, "pictures");
    mkdirSync(pictures, { recursive: true });
    writeFileSync(path.join(pictures, "lager.jpg"), "bild");
    const target = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    // The snapshot names the picture; a lead removes it before its file is copied.
    await backup(target, process.env, { afterSnapshot: () => rmSync(path.join(pictures, "lager.jpg")) });
    expect(readFileSync(path.join(target, "uploads", "pictures", "lager.jpg"), "utf8")).toBe("bild");
    // And a file that came after the first pass, before the snapshot, is there too.
    const later = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    await backup(later, process.env, { beforeSnapshot: () => writeFileSync(path.join(pictures, "neu.jpg"), "neu") });
    expect(readFileSync(path.join(later, "uploads", "pictures", "neu.jpg"), "utf8")).toBe("neu");
  });
});

// Operations probe of the restore: a full disk half-way left half the uploads moved aside, and
// the retry deleted them; a backup lying in the app's folders was emptied by its own restore.
describe("a restore that cannot finish", () => {
  /** A backup with two files, and a place whose app has a database, a file and an earlier restore's kept file. */
  async function backupAndUsedPlace() {
    const attachments = path.join(settings().uploadsDir, "attachments");
    rmSync(attachments, { recursive: true, force: true });
    mkdirSync(attachments, { recursive: true });
    writeFileSync(path.join(attachments, "a.pdf"), "A");
    writeFileSync(path.join(attachments, "b.pdf"), "B");
    const { target, env } = await backupAndEmptyPlace();
    const app = new Database(env.DATABASE_PATH);
    app.exec("CREATE TABLE app (x); INSERT INTO app VALUES ('lebt')");
    app.close();
    mkdirSync(path.join(env.UPLOADS_DIR, "attachments"), { recursive: true });
    writeFileSync(path.join(env.UPLOADS_DIR, "attachments", "alt.pdf"), "alt");
    mkdirSync(path.join(env.UPLOADS_DIR, ".vor-wiederherstellung"));
    writeFileSync(path.join(env.UPLOADS_DIR, ".vor-wiederherstellung", "frueher.pdf"), "früher");
    return { target, env };
  }

  function expectAppAsItWas(env: { DATABASE_PATH: string; UPLOADS_DIR: string }) {
    const app = new Database(env.DATABASE_PATH, { readonly: true });
    expect(app.prepare("SELECT x FROM app").pluck().get()).toBe("lebt");
    app.close();
    expect(readdirSync(env.UPLOADS_DIR).sort()).toEqual([".vor-wiederherstellung", "attachments"]);
    expect(readdirSync(path.join(env.UPLOADS_DIR, "attachments"))).toEqual(["alt.pdf"]);
    expect(readFileSync(path.join(env.UPLOADS_DIR, ".vor-wiederherstellung", "frueher.pdf"), "utf8")).toBe("früher");
    expect(readdirSync(path.dirname(env.DATABASE_PATH)).filter((f) => f.endsWith(".restore") || f.includes("vor-wiederherstellung"))).toEqual([]);
  }

  const full = () => Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });

  it("a full disk while copying the backup's files leaves the app as it was, and a retry then restores", async () => {
    const { restore } = await import("../../scripts/restore-lib.mjs");
    const { target, env } = await backupAndUsedPlace();
    let copied = 0;
    expect(() => restore(target, { ...process.env, ...env }, { copied: () => { if (++copied === 2) throw full(); } })).toThrow("ENOSPC");
    expectAppAsItWas(env);
    const restored = await npmScript("restore", target, env);
    expect(restored.code, restored.output).toBe(0);
    expect(readdirSync(path.join(env.UPLOADS_DIR, "attachments")).sort()).toEqual(["a.pdf", "b.pdf"]);
    expect(readdirSync(path.join(env.UPLOADS_DIR, ".vor-wiederherstellung", "attachments"))).toEqual(["alt.pdf"]);
  });

  it("a failure after the files were swapped puts the app's files and database back", async () => {
    const { restore } = await import("../../scripts/restore-lib.mjs");
    const { target, env } = await backupAndUsedPlace();
    expect(() => restore(target, { ...process.env, ...env }, { swapped: () => { throw full(); } })).toThrow("ENOSPC");
    expectAppAsItWas(env);
  });

  it("refuses a backup that holds the app's database or uploads, or lies in them, and changes nothing", async () => {
    const { target, env } = await backupAndUsedPlace();
    const before = readdirSync(target).sort();
    for (const place of [
      { DATABASE_PATH: path.join(target, "lagerfeuer.db"), UPLOADS_DIR: path.join(target, "uploads") },
      { ...env, UPLOADS_DIR: path.dirname(target) },
    ]) {
      const refused = await npmScript("restore", target, place);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("enthält die Datenbank oder den Upload-Ordner der App, oder liegt darin");
      expect(readdirSync(target).sort()).toEqual(before);
    }
    expectAppAsItWas(env);
  });

  it("after a restore cut off (a power cut), the app's files moved aside are never deleted: said, and nothing done", async () => {
    const { target, env } = await backupAndUsedPlace();
    const aside = path.join(env.UPLOADS_DIR, ".vor-wiederherstellung-neu");
    mkdirSync(path.join(aside, "pictures"), { recursive: true });
    writeFileSync(path.join(aside, "pictures", "einzig.webp"), "einzig");
    const refused = await npmScript("restore", target, env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`Eine frühere Wiederherstellung wurde unterbrochen: Die Dateien der App von vor ihr liegen in ${aside}. `);
    expect(readFileSync(path.join(aside, "pictures", "einzig.webp"), "utf8")).toBe("einzig");
    rmSync(aside, { recursive: true });
    expectAppAsItWas(env);
  });

  it("a damaged database whose checksum fits is said in German", async () => {
    const { target, env } = await backupAndEmptyPlace();
    const file = path.join(target, "lagerfeuer.db");
    writeFileSync(file, readFileSync(file).subarray(0, 4096));
    const manifestFile = path.join(target, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    const sha = (await import("node:crypto")).createHash("sha256").update(readFileSync(file)).digest("hex");
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, files: manifest.files.map((f: { file: string }) => (f.file === "lagerfeuer.db" ? { ...f, sha256: sha } : f)) }));
    const refused = await npmScript("restore", target, env);
    expect(refused.code).toBe(1);
    expect(refused.output.trim()).toMatch(/^Die gesicherte Datenbank ist nicht in Ordnung/);
    expect(existsSync(env.DATABASE_PATH)).toBe(false);
  });
});

describe("backup: where and what", () => {
  it("a relative folder is the caller's, and the answer names it in full", async () => {
    mkdirSync(settings().uploadsDir, { recursive: true });
    const caller = mkdtempSync(path.join(tmpdir(), "lf-aufruf-"));
    const made = await npmScript("backup", "sicherung", { INIT_CWD: caller });
    expect(made.code, made.output).toBe(0);
    expect(existsSync(path.join(caller, "sicherung", "manifest.json"))).toBe(true);
    expect(made.output).toContain(`nach ${path.join(caller, "sicherung")} `);
  });

  it("a folder of the uploads linked from another disk is backed up as a folder", async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), "lf-andere-platte-"));
    writeFileSync(path.join(elsewhere, "bild.webp"), "bild");
    mkdirSync(settings().uploadsDir, { recursive: true });
    rmSync(path.join(settings().uploadsDir, "pictures"), { recursive: true, force: true });
    (await import("node:fs")).symlinkSync(elsewhere, path.join(settings().uploadsDir, "pictures"));
    try {
      const target = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
      const made = await npmScript("backup", target);
      expect(made.code, made.output).toBe(0);
      expect(readFileSync(path.join(target, "uploads", "pictures", "bild.webp"), "utf8")).toBe("bild");
    } finally {
      rmSync(path.join(settings().uploadsDir, "pictures"));
    }
  });

  it("a database path that names a folder is said so", async () => {
    mkdirSync(settings().uploadsDir, { recursive: true });
    const folder = mkdtempSync(path.join(tmpdir(), "lf-keine-db-"));
    const target = path.join(mkdtempSync(path.join(tmpdir(), "lf-backup-")), "sicherung");
    const refused = await npmScript("backup", target, { DATABASE_PATH: folder });
    expect(refused.code).toBe(1);
    expect(refused.output.trim()).toBe(`Keine Datenbank unter ${folder}. Bitte DATABASE_PATH so setzen wie für die App.`);
  });
});
