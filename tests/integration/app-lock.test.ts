// The app's lock on its database (scripts/running-app.mjs): what a second start and `npm run
// restore` ask. Held by other processes here, as the kernel's locks are per process.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appFiles, takeAppLock } from "../../scripts/running-app.mjs";

const place = () => mkdtempSync(path.join(tmpdir(), "lf-sperre-"));

/** A process holding the lock on `databasePath`, as a running server does. */
async function holder(databasePath: string) {
  const child = spawn(process.execPath, [
    "--input-type=module",
    "-e",
    `import { takeAppLock } from ${JSON.stringify(path.resolve("scripts/running-app.mjs"))}; console.log(takeAppLock(${JSON.stringify(databasePath)}) ? "gesperrt" : "besetzt"); setInterval(() => {}, 1000);`,
  ]);
  const said = await new Promise<string>((resolve) => child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  expect(said).toBe("gesperrt");
  return {
    async end() {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

describe("the app's lock on its database", () => {
  it("is held against every other process until its holder ends, however it ends", async () => {
    const databasePath = path.join(place(), "daten", "app.db");
    const app = await holder(databasePath);
    expect(takeAppLock(databasePath)).toBeNull();
    await app.end(); // SIGKILL: the kernel lets go
    const lock = takeAppLock(databasePath);
    expect(lock).not.toBeNull();
    lock!.close();
  });

  it("is the same lock when the database is named through a symbolic link", async () => {
    const dir = place();
    const real = path.join(dir, "echt.db");
    writeFileSync(real, "");
    symlinkSync(real, path.join(dir, "verweis.db"));
    expect(appFiles(path.join(dir, "verweis.db"))).toEqual(appFiles(real));
    const app = await holder(real);
    expect(takeAppLock(path.join(dir, "verweis.db"))).toBeNull();
    await app.end();
  });

  it("is a file for the app's user alone: whoever can read it could hold it", () => {
    const databasePath = path.join(place(), "neu", "app.db");
    const lock = takeAppLock(databasePath)!;
    expect(statSync(appFiles(databasePath).lock).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(databasePath)).mode & 0o777).toBe(0o700); // a data folder it made
    lock.close();
  });

  it("says in German when the lock file is no lock file", () => {
    const databasePath = path.join(place(), "app.db");
    writeFileSync(`${databasePath}.lock`, "kein SQLite, sondern Text, der lang genug für einen Kopf ist: ".repeat(4));
    expect(() => takeAppLock(databasePath)).toThrow(/app\.db\.lock ist keine Sperrdatei von Lagerfeuer \(SQLITE_NOTADB\)\. Wenn Lagerfeuer nicht läuft, bitte die Datei löschen\./);
  });

  it("refuses in German when the app's user may not write the lock file (read-only, it would exclude nobody)", () => {
    // Run as another user when the tests run as root (root may write anything): the lock module
    // and better-sqlite3 copied where that user can read them.
    const dir = place();
    chmodSync(dir, 0o755);
    const modules = path.join(dir, "node_modules", "better-sqlite3");
    cpSync("node_modules/better-sqlite3/package.json", path.join(modules, "package.json"));
    cpSync("node_modules/better-sqlite3/lib", path.join(modules, "lib"), { recursive: true });
    cpSync("node_modules/better-sqlite3/build/Release/better_sqlite3.node", path.join(modules, "build", "Release", "better_sqlite3.node"));
    cpSync("node_modules/bindings", path.join(dir, "node_modules", "bindings"), { recursive: true });
    cpSync("node_modules/file-uri-to-path", path.join(dir, "node_modules", "file-uri-to-path"), { recursive: true });
    cpSync("scripts/running-app.mjs", path.join(dir, "running-app.mjs"));
    const data = path.join(dir, "daten");
    mkdirSync(data, { mode: 0o777 });
    chmodSync(data, 0o777);
    const databasePath = path.join(data, "app.db");
    writeFileSync(`${databasePath}.lock`, "");
    chmodSync(`${databasePath}.lock`, 0o444);
    const asRoot = process.getuid?.() === 0;
    const result = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { takeAppLock } from ${JSON.stringify(path.join(dir, "running-app.mjs"))}; try { console.log(takeAppLock(${JSON.stringify(databasePath)}) ? "gesperrt" : "besetzt"); } catch (error) { console.log(error.message); }`,
      ],
      { encoding: "utf8", cwd: dir, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) },
    );
    expect(result.stdout.trim(), result.stderr).toBe(
      `${databasePath}.lock lässt sich nicht anlegen, öffnen oder beschreiben (EACCES). Stimmt DATABASE_PATH, gibt es den Ordner, und darf der Benutzer, unter dem Lagerfeuer läuft, darin schreiben?`,
    );
  });
});
