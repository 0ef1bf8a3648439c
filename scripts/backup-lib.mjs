// Backups of the database and the uploaded files, and their restore (README, 'Back-ups').
// `npm run backup -- DIR` works while the app runs and writes: SQLite's online backup API copies a
// consistent snapshot; the uploads are copied after it, so every file a backed-up row names is
// there. A manifest lists every file with its size and SHA-256; `npm run restore -- DIR` checks
// it, refuses while the app runs, and checks the restored database's integrity.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { processNote, realDatabasePath, takeAppLock } from "./running-app.mjs";

export const MANIFEST = "manifest.json";
const DATABASE_FILE = "lagerfeuer.db";

export function paths(env = process.env) {
  const databasePath = path.resolve(env.DATABASE_PATH || "data/lagerfeuer.db");
  return { databasePath, uploadsDir: path.resolve(env.UPLOADS_DIR || "uploads") };
}

function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function walk(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === ".tmp" ? [] : walk(full, base);
    return [path.relative(base, full)];
  });
}

export async function backup(target, env = process.env) {
  const { databasePath, uploadsDir } = paths(env);
  if (!existsSync(databasePath)) throw new Error(`Keine Datenbank unter ${databasePath}.`);
  const dir = path.resolve(target);
  if (existsSync(dir) && readdirSync(dir).length) throw new Error(`Der Ordner ${dir} ist nicht leer.`);
  mkdirSync(path.join(dir, "uploads"), { recursive: true });
  const source = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path.join(dir, DATABASE_FILE));
  } finally {
    source.close();
  }
  const uploads = walk(uploadsDir);
  for (const file of uploads) {
    mkdirSync(path.dirname(path.join(dir, "uploads", file)), { recursive: true });
    try {
      copyFileSync(path.join(uploadsDir, file), path.join(dir, "uploads", file));
    } catch (error) {
      if (error.code !== "ENOENT") throw error; // removed meanwhile: no backed-up row names it any more
    }
  }
  const files = [DATABASE_FILE, ...uploads.filter((f) => existsSync(path.join(dir, "uploads", f))).map((f) => path.join("uploads", f))];
  const manifest = {
    createdAt: new Date().toISOString(),
    files: files.map((file) => ({ file, size: statSync(path.join(dir, file)).size, sha256: sha256(path.join(dir, file)) })),
  };
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}

export function verify(dir) {
  const manifestFile = path.join(dir, MANIFEST);
  if (!existsSync(manifestFile)) throw new Error(`Keine Sicherung in ${dir}: ${MANIFEST} fehlt.`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  for (const entry of manifest.files) {
    const file = path.join(dir, entry.file);
    if (!existsSync(file)) throw new Error(`Die Sicherung ist unvollständig: ${entry.file} fehlt.`);
    if (sha256(file) !== entry.sha256) throw new Error(`Die Sicherung ist beschädigt: ${entry.file} hat eine andere Prüfsumme.`);
  }
  return manifest;
}

export function restore(source, env = process.env) {
  const dir = path.resolve(source);
  const { databasePath: named, uploadsDir } = paths(env);
  const databasePath = realDatabasePath(named); // a link stays a link
  // Held while restoring: no app starts on a database half put back.
  const lock = takeAppLock(databasePath);
  if (!lock) throw new Error(`Die App läuft${processNote(databasePath)} und hält die Datenbank, oder eine andere Wiederherstellung. Bitte zuerst beenden.`);
  try {
    return restoreHolding(dir, databasePath, uploadsDir);
  } finally {
    lock.close();
  }
}

function restoreHolding(dir, databasePath, uploadsDir) {
  const manifest = verify(dir);
  const check = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
  const integrity = check.pragma("integrity_check", { simple: true });
  check.close();
  if (integrity !== "ok") throw new Error(`Die gesicherte Datenbank ist nicht in Ordnung: ${integrity}`);
  mkdirSync(path.dirname(databasePath), { recursive: true });
  for (const suffix of ["-wal", "-shm"]) rmSync(`${databasePath}${suffix}`, { force: true });
  copyFileSync(path.join(dir, DATABASE_FILE), `${databasePath}.restore`);
  renameSync(`${databasePath}.restore`, databasePath);
  rmSync(uploadsDir, { recursive: true, force: true });
  for (const entry of manifest.files.filter((f) => f.file.startsWith(`uploads${path.sep}`))) {
    const target = path.join(uploadsDir, path.relative("uploads", entry.file));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(dir, entry.file), target);
  }
  return manifest;
}
