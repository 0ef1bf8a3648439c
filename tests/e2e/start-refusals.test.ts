// A start that cannot serve ends with one German line naming the setting, at level fatal whatever
// LOG_LEVEL says, before it writes anything: no database, no pid file, no first admin (an
// operator's walk-through of the README found folders checked only after the database was made,
// a mail folder never checked, and reasons in English or not shown at all).
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startOwnServer } from "../support/server";

/** The error a start ends with (startOwnServer puts the server's output in its message). */
async function refusal(env: Record<string, string>) {
  return startOwnServer(env).then(
    async (app) => {
      await app.stop();
      return "started";
    },
    (error: Error) => error.message,
  );
}

/** A folder with a file `datei` in it, where a setting's folder should be. */
function folderWithAFile() {
  const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-start-"));
  writeFileSync(path.join(dir, "datei"), "kein Ordner");
  return { dir, file: path.join(dir, "datei") };
}

describe("a start that cannot serve", () => {
  for (const processes of ["1", "2"]) {
    it(`ends before the database is made when UPLOADS_DIR or MAIL_DIR cannot be written (WEB_CONCURRENCY=${processes})`, async () => {
      const { dir, file } = folderWithAFile();
      const databasePath = path.join(dir, "data", "lagerfeuer.db");
      const uploads = await refusal({ WEB_CONCURRENCY: processes, DATABASE_PATH: databasePath, UPLOADS_DIR: file });
      expect(uploads).toMatch(/exit 1\):\n[^]*\{"level":60,[^\n]*"msg":"Der Upload-Ordner [^"]*datei ist nicht beschreibbar \((?:EEXIST|ENOTDIR)\)\. Bitte UPLOADS_DIR prüfen/);
      const mail = await refusal({ WEB_CONCURRENCY: processes, DATABASE_PATH: databasePath, MAIL_DIR: path.join(file, "mail") });
      expect(mail).toMatch(/exit 1\):\n[^]*\{"level":60,[^\n]*"msg":"Der Mail-Ordner [^"]*datei\/mail ist nicht beschreibbar \((?:EEXIST|ENOTDIR)\)\. Bitte MAIL_DIR prüfen/);
      for (const output of [uploads, mail]) expect(output).not.toMatch(/Erster Admin|Passwort/);
      // Nothing of the database: no file, no pid file (the lock file is the app's guard, kept).
      expect(readdirSync(path.join(dir, "data")).filter((name) => !/\.lock|session-secret/.test(name))).toEqual([]);
    });
  }

  it("with SMTP_URL set, does not need MAIL_DIR", async () => {
    const { file } = folderWithAFile();
    const started = await refusal({ MAIL_DIR: file, SMTP_URL: "smtp://127.0.0.1:1" });
    expect(started).toBe("started");
  });

  it("says so at level fatal even with LOG_LEVEL=silent; WEB_CONCURRENCY takes digits only", async () => {
    const { dir } = folderWithAFile();
    const databasePath = path.join(dir, "data", "lagerfeuer.db");
    const output = await refusal({ LOG_LEVEL: "silent", WEB_CONCURRENCY: "1e1", DATABASE_PATH: databasePath });
    expect(output).toMatch(/\{"level":60,[^\n]*"msg":"WEB_CONCURRENCY muss eine ganze Zahl von 1 bis 64 sein, ist aber „1e1“\."\}/);
    const settings = await refusal({ LOG_LEVEL: "silent", RETENTION_YEARS: "0", DATABASE_PATH: databasePath });
    expect(settings).toMatch(/\{"level":60,[^\n]*"msg":"Ungültige Einstellungen:\\n  - RETENTION_YEARS: muss mindestens 1 sein"\}/);
    expect(existsSync(databasePath)).toBe(false);
  });
});
