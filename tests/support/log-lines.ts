// Reads a server log: one JSON object per line (pino, app/services/log.server.ts).
/**
 * The lines of a log as JSON objects: every line the server writes is one (pino), with its level,
 * time, process and message; a line that is not fails the test with the line.
 */
export function logLines(log: string): { level: number; time: string; pid: number; msg: string; [field: string]: unknown }[] {
  return log
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`A log line is not JSON: ${line}`);
      }
      if (typeof entry.level !== "number" || typeof entry.time !== "string" || typeof entry.pid !== "number" || typeof entry.msg !== "string") {
        throw new Error(`A log line lacks level, time, pid or msg: ${line}`);
      }
      return entry as ReturnType<typeof logLines>[number];
    });
}
