// Graceful shutdown: SIGTERM during an upload lets it finish, then the process ends cleanly; a
// temporary upload file left behind by a crash is removed at the next start.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pngBytes, validEventFields } from "../support/events";
import { ADMIN, startOwnServer } from "../support/server";

/** The event form as a browser sends it, as raw bytes. */
async function eventFormBody() {
  const form = new FormData();
  for (const [name, value] of Object.entries(validEventFields({ title: "Abschiedsfreizeit" }))) form.append(name, String(value));
  form.append("picture", new File([new Uint8Array(pngBytes(800, 400))], "lager.png", { type: "image/png" }));
  const encoded = new Response(form);
  return { contentType: encoded.headers.get("Content-Type")!, bytes: Buffer.from(await encoded.arrayBuffer()) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` holds (at most 10 s: a busy machine is slow, never that slow). */
async function until(what: string, probe: () => boolean | Promise<boolean>) {
  for (const deadline = Date.now() + 10_000; !(await probe()); await pause(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe("graceful shutdown", () => {
  it("lets an upload in flight finish with its normal answer, then exits with 0", async () => {
    const app = await startOwnServer();
    try {
      const cookie = await app.sessionCookie(ADMIN.email);
      const { contentType, bytes } = await eventFormBody();

      const socket = connect(app.port, "127.0.0.1");
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      let answer = "";
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.write(
        `POST /freizeit/create HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nCookie: ${cookie}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\nConnection: keep-alive\r\n\r\n`,
      );
      const half = Math.floor(bytes.length / 2);
      socket.write(bytes.subarray(0, half));
      // The server is reading the picture (the form's last part) into a temporary file.
      const receiving = path.join(app.uploadsDir, ".tmp");
      await until("the upload to begin", () => existsSync(receiving) && readdirSync(receiving).length > 0);

      app.child.kill("SIGTERM");
      await until("the server to stop", () => app.output().includes("SIGTERM: Server wird beendet"));
      // Stopped taking new connections, but the upload is still being read.
      await until("new connections to be refused", () =>
        fetch(`${app.baseUrl}/healthz`).then(
          () => false,
          () => true,
        ),
      );
      expect(app.child.exitCode).toBeNull();

      socket.write(bytes.subarray(half));
      await closed; // the server closes the connection after the answer, although keep-alive was asked for
      expect(answer).toMatch(/^HTTP\/1\.1 302 /);
      expect(answer).toMatch(/\r\nLocation: \/freizeit\/\d+\r\n/i);

      expect(await app.exited).toBe(0);
      expect(app.output()).toContain("SIGTERM: Server wird beendet");
      // Its last word: the operator reading the log knows it ended in order, not cut off.
      expect(app.output().trimEnd()).toMatch(/"msg":"Server beendet\."\}$/);
      expect(app.query<{ title: string }>("select title from events")).toEqual([{ title: "Abschiedsfreizeit" }]);
      expect(readdirSync(path.join(app.uploadsDir, ".tmp"))).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it("removes temporary files of an earlier, cut-off upload at start", async () => {
    const first = await startOwnServer();
    const uploadsDir = first.uploadsDir;
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // What a crash mid-upload leaves behind.
    mkdirSync(path.join(uploadsDir, ".tmp"), { recursive: true });
    writeFileSync(path.join(uploadsDir, ".tmp", "halb-hochgeladen"), "…");

    const again = await startOwnServer({ UPLOADS_DIR: uploadsDir, DATABASE_PATH: first.databasePath });
    try {
      expect(existsSync(path.join(uploadsDir, ".tmp", "halb-hochgeladen"))).toBe(false);
    } finally {
      await again.stop();
      await first.stop();
    }
  });
});
