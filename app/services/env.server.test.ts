import { mkdtempSync, writeFileSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exampleSettingsInUse, parseSettings, resolveSessionSecret, SettingsError } from "./env.server";

describe("settings", () => {
  it("has a default for everything, so a fresh install needs no configuration", () => {
    const s = parseSettings({});
    expect(s.port).toBe(3000);
    expect(s.databasePath).toBe(path.resolve("data/lagerfeuer.db"));
    expect(s.uploadsDir).toBe(path.resolve("uploads"));
    expect(s.mailDir).toBe(path.resolve("data/mail"));
    expect(s.smtpUrl).toBeUndefined();
    expect(s.appUrl).toBe("http://localhost:3000");
    expect(s.host).toBeUndefined();
    expect(s.trustProxy).toEqual(["loopback"]);
    expect(s.shutdownTimeoutSeconds).toBe(10);
    expect(s.sessionTtlHours).toBe(168);
    expect(s.bank.iban).toBe("DE02120300000000202051");
    expect(s.bank.creditorId).toBe("DE98ZZZ09999999999");
    expect(Object.keys(s.links)).toEqual(["contact", "directions", "faq", "downloads", "imprint", "privacy"]);
    expect(s.pageCache).toBe(true);
    expect(s.mailFrom).toBe("Lagerfeuer <noreply@localhost>");
    expect(s.mailPollMs).toBe(2000);
  });

  it("reads LOG_LEVEL and PAGE_CACHE in any case, and MAIL_FROM with or without a name", () => {
    expect(() => parseSettings({ LOG_LEVEL: " Warn " })).not.toThrow(); // as the logger reads it
    expect(parseSettings({ PAGE_CACHE: "OFF" }).pageCache).toBe(false);
    expect(parseSettings({ PAGE_CACHE: "on" }).pageCache).toBe(true);
    expect(parseSettings({ MAIL_FROM: "anmeldung@jugendverband.de" }).mailFrom).toBe("anmeldung@jugendverband.de");
    expect(parseSettings({ MAIL_FROM: '"Jugendverband e.V." <anmeldung@jugendverband.de>' }).mailFrom).toBe('"Jugendverband e.V." <anmeldung@jugendverband.de>');
  });

  it("reads values and treats an empty variable as unset", () => {
    const s = parseSettings({ PORT: "8080", SMTP_URL: "", APP_URL: "https://lager.example.org/", BANK_IBAN: "de89 3704 0044 0532 0130 00" });
    expect(s.port).toBe(8080);
    expect(s.smtpUrl).toBeUndefined();
    expect(s.appUrl).toBe("https://lager.example.org");
    expect(s.bank.iban).toBe("DE89370400440532013000");
    expect(parseSettings({ BANK_CREDITOR_ID: "de98 zzz 0999 9999 999" }).bank.creditorId).toBe("DE98ZZZ09999999999");
  });

  it("points mail links to the configured port when APP_URL is unset", () => {
    expect(parseSettings({ PORT: "3411" }).appUrl).toBe("http://localhost:3411");
    expect(parseSettings({ PORT: "3411", APP_URL: "https://lager.example.org" }).appUrl).toBe("https://lager.example.org");
  });

  it("reads TRUST_PROXY as hops, addresses and subnets, or false, and HOST", () => {
    expect(parseSettings({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(parseSettings({ TRUST_PROXY: "0" }).trustProxy).toBe(0);
    expect(parseSettings({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(parseSettings({ TRUST_PROXY: "loopback, 172.16.0.0/12,10.0.0.7, fd00::/8" }).trustProxy).toEqual([
      "loopback",
      "172.16.0.0/12",
      "10.0.0.7",
      "fd00::/8",
    ]);
    expect(parseSettings({ HOST: "127.0.0.1" }).host).toBe("127.0.0.1");
    expect(parseSettings({ HOST: "::" }).host).toBe("::");
    expect(parseSettings({ HOST: "localhost" }).host).toBe("localhost");
    expect(parseSettings({ SHUTDOWN_TIMEOUT_SECONDS: "30" }).shutdownTimeoutSeconds).toBe(30);
  });

  it.each([
    ["TRUST_PROXY", "true"],
    ["TRUST_PROXY", "nginx"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "1.2.3.4,"],
    ["TRUST_PROXY", "99"],
    ["HOST", "http://0.0.0.0"],
    ["HOST", "a b"],
    ["SHUTDOWN_TIMEOUT_SECONDS", "-1"],
    ["SHUTDOWN_TIMEOUT_SECONDS", "zehn"],
    ["PORT", "achtzig"],
    ["PORT", "70000"],
    ["APP_URL", "lager.example.org"],
    ["SMTP_URL", "http://mail.example.org"],
    ["SESSION_SECRET", "kurz"],
    ["SESSION_TTL_HOURS", "0"],
    ["ADMIN_EMAIL", "kein-at-zeichen"],
    ["ADMIN_PASSWORD", "kurz"],
    ["LINK_IMPRINT", "ftp://example.org/impressum"],
    ["BANK_IBAN", "DE00370400440532013000"],
    ["BANK_BIC", "XYZ"],
    ["BANK_CREDITOR_ID", "DE97ZZZ09999999999"],
    ["LOG_LEVEL", "verbose"],
    ["MAIL_POLL_SECONDS", "0"],
    ["PAGE_CACHE", "aus"],
    ["MAIL_FROM", "Jugendverband"],
    ["MAIL_FROM", "Jugendverband <noreply>"],
    ["MAIL_FROM", "a@b.org, c@d.org"],
  ])("stops on a bad %s with a message naming it", (name, value) => {
    let error: unknown;
    try {
      parseSettings({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).message).toContain(name);
  });

  it("names every bad setting at once", () => {
    expect(() => parseSettings({ PORT: "x", APP_URL: "y" })).toThrow(/PORT[\s\S]*APP_URL|APP_URL[\s\S]*PORT/);
  });

  it("generates a session secret once and keeps it in the data folder", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lf-secret-"));
    const databasePath = path.join(dir, "data", "lagerfeuer.db");
    const first = resolveSessionSecret(undefined, databasePath);
    const second = resolveSessionSecret(undefined, databasePath);
    expect(first).toHaveLength(43);
    expect(second).toBe(first);
    const file = path.join(dir, "data", "session-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The data folder it made (the database, its mail) is the app user's alone.
    expect(statSync(path.join(dir, "data")).mode & 0o777).toBe(0o700);
    expect(resolveSessionSecret("ein-gesetztes-geheimnis-mit-genug-zeichen", databasePath)).toBe(
      "ein-gesetztes-geheimnis-mit-genug-zeichen",
    );
  });

  // Operator's walk-through: a data folder that cannot be made ended the start in English
  // ("EEXIST: file already exists, mkdir …"), not naming the setting.
  it("says in German, naming DATABASE_PATH, when the database's folder cannot be made for the kept secret", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lf-secret-"));
    writeFileSync(path.join(dir, "datei"), "kein Ordner");
    const databasePath = path.join(dir, "datei", "daten", "lagerfeuer.db");
    expect(() => resolveSessionSecret(undefined, databasePath)).toThrow(SettingsError);
    expect(() => resolveSessionSecret(undefined, databasePath)).toThrow(
      /DATABASE_PATH: Der Ordner .*datei\/daten lässt sich nicht anlegen \((?:EEXIST|ENOTDIR)\)\./,
    );
  });

  it("says the range of a whole-number setting, also for a negative number", () => {
    expect(() => parseSettings({ RETENTION_HEALTH_DAYS: "-3" })).toThrow("RETENTION_HEALTH_DAYS: muss eine ganze Zahl von 1 bis 3650 sein");
    expect(() => parseSettings({ PORT: "achtzig" })).toThrow("PORT: muss eine ganze Zahl von 1 bis 65535 sein");
    expect(() => parseSettings({ PORT: "70000" })).toThrow("PORT: darf höchstens 65535 sein");
  });

  // Operations review: an empty session-secret signed every cookie with an empty key, so device
  // cookies could be forged and sign-in throttling passed by.
  it("refuses a kept secret that is empty or shorter than 32 characters, naming the file", () => {
    for (const content of ["", "\n", "kurz\n", "x".repeat(31)]) {
      const dir = mkdtempSync(path.join(tmpdir(), "lf-secret-"));
      writeFileSync(path.join(dir, "session-secret"), content, { mode: 0o600 });
      expect(() => resolveSessionSecret(undefined, path.join(dir, "lagerfeuer.db"))).toThrow(SettingsError);
      expect(() => resolveSessionSecret(undefined, path.join(dir, "lagerfeuer.db"))).toThrow(/session-secret.*mindestens 32 Zeichen/);
    }
  });

  // Admins' review: a quick start went live with the sample bank account shown for transfers.
  it("names the settings parents see that are still the examples (unset or blank)", () => {
    expect(exampleSettingsInUse({})).toEqual(expect.arrayContaining(["BANK_IBAN", "BANK_ACCOUNT_HOLDER", "BANK_CREDITOR_ID", "MAIL_FROM", "LINK_IMPRINT", "LINK_PRIVACY"]));
    const set = exampleSettingsInUse({ BANK_IBAN: "DE89 3704 0044 0532 0130 00", BANK_NAME: " ", MAIL_FROM: "Jugendverband <anmeldung@example.org>" });
    expect(set).not.toContain("BANK_IBAN");
    expect(set).not.toContain("MAIL_FROM");
    expect(set).toContain("BANK_NAME");
  });
});
