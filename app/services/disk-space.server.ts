// The free space of the disk that holds the uploads (and, as the README sets it up, the database).
// Files are the only thing a person can fill a disk with quickly; when less than
// UPLOADS_MIN_FREE_MB would be left after a file, the file is refused, so that enrolments,
// sessions and the outbox still have room to be written. /healthz reports it.
import { statfsSync } from "node:fs";
import { statfs } from "node:fs/promises";
import path from "node:path";
import { settings } from "./env.server";

const MB = 1024 * 1024;

export const DISK_LOW =
  "Auf dem Server ist kaum noch Speicherplatz frei, deshalb wurde die Datei nicht gespeichert. Bitte wenden Sie sich an die Administration.";

/** The folder itself or, before it is made, the nearest one above it. */
function existingAncestors(dir: string) {
  const chain = [dir];
  while (path.dirname(chain[chain.length - 1]) !== chain[chain.length - 1]) chain.push(path.dirname(chain[chain.length - 1]));
  return chain;
}

/** Bytes an unprivileged process may still write on the uploads' disk; null if unknown. */
async function freeBytes(): Promise<number | null> {
  for (const dir of existingAncestors(settings().uploadsDir)) {
    try {
      const stats = await statfs(dir);
      return stats.bavail * stats.bsize;
    } catch {
      // not there (yet): the disk of the folder above
    }
  }
  return null;
}

/** Would a file of up to `limit` bytes leave less than the reserve of `free` bytes? The one rule. */
export function leavesTooLittle(free: number, limit: number, reserve = settings().uploadsMinFreeBytes) {
  return free - limit < reserve;
}

/**
 * For one form: may a file of up to `limit` bytes be written, after `written` bytes of this form?
 * The disk is asked once per form, when its first file arrives.
 */
export function roomForFiles() {
  let free: Promise<number | null> | undefined;
  return async (limit: number, written: number) => {
    free ??= freeBytes();
    const bytes = await free;
    return bytes === null || !leavesTooLittle(bytes - written, limit);
  };
}

/** For /healthz, figures only: `low` once a file of the largest size would be refused. */
export function diskReport(largestFile: number) {
  const minFreeMb = settings().uploadsMinFreeBytes / MB;
  for (const dir of existingAncestors(settings().uploadsDir)) {
    try {
      const stats = statfsSync(dir);
      const free = stats.bavail * stats.bsize;
      return { freeMb: Math.floor(free / MB), minFreeMb, low: leavesTooLittle(free, largestFile) };
    } catch {
      // the folder above
    }
  }
  return { freeMb: null, minFreeMb, low: false };
}
