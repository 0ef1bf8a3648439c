// The free space of the disk that holds the uploads (and, as the README sets it up, the database).
// Files are the only thing a person can fill a disk with quickly; when less than
// UPLOADS_MIN_FREE_MB would be left after a file, the file is refused, so that enrolments,
// sessions and the outbox still have room to be written. /healthz reports it.
import { statfsSync } from "node:fs";
import path from "node:path";
import { settings } from "./env.server";

const MB = 1024 * 1024;

export const DISK_LOW =
  "Auf dem Server ist kaum noch Speicherplatz frei, deshalb wurde die Datei nicht gespeichert. Bitte wenden Sie sich an die Administration.";

/**
 * Bytes an unprivileged process may still write on the uploads' disk (of the folder, or before it
 * is made, of the nearest one above it); null if unknown. One system call, no disk access.
 */
function freeBytes(): number | null {
  for (let dir = settings().uploadsDir; ; dir = path.dirname(dir)) {
    try {
      const stats = statfsSync(dir);
      return stats.bavail * stats.bsize;
    } catch {
      if (path.dirname(dir) === dir) return null;
    }
  }
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
  let free: number | null | undefined;
  return (limit: number, written: number) => {
    if (free === undefined) free = freeBytes();
    return free === null || !leavesTooLittle(free - written, limit);
  };
}

/** For /healthz, figures only: `low` once a file of the largest size would be refused. */
export function diskReport(largestFile: number) {
  const free = freeBytes();
  return {
    freeMb: free === null ? null : Math.floor(free / MB),
    minFreeMb: settings().uploadsMinFreeBytes / MB,
    low: free !== null && leavesTooLittle(free, largestFile),
  };
}
