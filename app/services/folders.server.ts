// The folders the app writes into, checked at start (uploads, mail): made when missing and
// written once, so that a folder the app cannot use ends the start instead of failing later.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The system's short code of a failed file operation (EACCES, ENOTDIR, …), or its text. */
export function errorCode(error: unknown) {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** Makes `dir` when missing, then writes and removes a file in it; throws the system's error when it cannot. */
export function probeFolder(dir: string, mode?: number) {
  mkdirSync(dir, { recursive: true, mode });
  const probe = path.join(dir, `.probe-${process.pid}`);
  writeFileSync(probe, "ok");
  rmSync(probe);
}
