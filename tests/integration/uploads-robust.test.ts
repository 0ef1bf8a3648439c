// Uploads that cannot take the server down: odd file names, a missing or unusable upload folder,
// a body that breaks off. Each of these used to raise an unhandled stream error or a 500.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { events, files } from "../../db/schema";
import { action as createAction } from "~/routes/freizeit.create";
import { action as editAction } from "~/routes/freizeit.edit.$freizeitId";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { cleanTempUploads, discardUploads, readUploadForm, SAVE_FAILED, UploadError } from "~/services/uploads.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent, multipartPost, pdfBytes, pngBytes, validEventFields } from "../support/events";
import { body, run } from "../support/remix";

const uploads = () => settings().uploadsDir;
const tempFiles = () => (existsSync(path.join(uploads(), ".tmp")) ? readdirSync(path.join(uploads(), ".tmp")) : []);

let cookie: string;
beforeEach(async () => {
  resetDatabase();
  rmSync(uploads(), { recursive: true, force: true });
  cookie = await sessionCookieFor((await createUser({ role: "admin" })).id);
});

function postEvent(attachments: { name: string; bytes: Buffer; type?: string }[], picture: { name: string; bytes: Buffer }[] = []) {
  return run(createAction, multipartPost("/freizeit/create", validEventFields(), { attachments, picture }, cookie));
}

describe("file names", () => {
  it("of any characters are accepted and kept as display names", async () => {
    const names = ["Anmeldung=Liste;v2.pdf", "Grüße aus Plön – été (2026).pdf", "a;b=c; filename=x.pdf", "名前.pdf", "..\\..\\etc\\passwd.pdf"];
    const response = await postEvent(names.map((name) => ({ name, bytes: pdfBytes(), type: "application/pdf" })));
    expect(response.status).toBe(302);
    const stored = db.select({ displayName: files.displayName }).from(files).orderBy(files.position).all().map((f) => f.displayName);
    expect(stored).toEqual(["Anmeldung=Liste;v2.pdf", "Grüße aus Plön – été (2026).pdf", "a;b=c; filename=x.pdf", "名前.pdf", "passwd.pdf"]);
  });
});

describe("display names", () => {
  it("end in the extension of the type found in the content", async () => {
    const response = await postEvent([
      { name: "bild.png", bytes: Buffer.from("nur Text\n"), type: "image/png" },
      { name: "..\\..\\server.mjs", bytes: pdfBytes() },
      { name: "Foto.JPEG", bytes: pdfBytes() },
    ]);
    expect(response.status).toBe(302);
    const stored = db.select({ displayName: files.displayName }).from(files).orderBy(files.position).all().map((f) => f.displayName);
    expect(stored).toEqual(["bild.png.txt", "server.mjs.pdf", "Foto.JPEG.pdf"]);
  });
});

describe("an upload folder that cannot be written", () => {
  it("a missing .tmp folder is made again, the save works", async () => {
    rmSync(path.join(uploads(), ".tmp"), { recursive: true, force: true });
    const response = await postEvent([{ name: "Packliste.pdf", bytes: pdfBytes() }]);
    expect(response.status).toBe(302);
    expect(tempFiles()).toEqual([]);
  });

  it("a temp folder that cannot be made: the form says so, nothing is stored, the process lives", async () => {
    mkdirSync(uploads(), { recursive: true });
    writeFileSync(path.join(uploads(), ".tmp"), "kein Ordner");
    const response = await postEvent([{ name: "Packliste.pdf", bytes: pdfBytes() }], [{ name: "bild.png", bytes: pngBytes() }]);
    expect(response.status).toBe(503);
    const data = await body<{ fileErrors: Record<string, string> }>(response);
    expect(data.fileErrors.attachments).toBe(SAVE_FAILED);
    expect(data.fileErrors.picture).toBe(SAVE_FAILED);
    expect(db.select().from(events).all()).toEqual([]);
  });

  it("a target folder that cannot be made: the form says so, the temp file is gone", async () => {
    mkdirSync(uploads(), { recursive: true });
    writeFileSync(path.join(uploads(), "attachments"), "kein Ordner");
    const response = await postEvent([{ name: "Packliste.pdf", bytes: pdfBytes() }]);
    expect(response.status).toBe(503);
    expect((await body<{ fileErrors: Record<string, string> }>(response)).fileErrors.attachments).toBe(SAVE_FAILED);
    expect(db.select().from(events).all()).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });
});

describe("a body that breaks off mid-file", () => {
  it("answers 400, keeps no temp file and stores nothing", async () => {
    const boundary = "----abbruch";
    const head = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="title"',
      "",
      "Sommer",
      `--${boundary}`,
      'Content-Disposition: form-data; name="attachments"; filename="gross.pdf"',
      "Content-Type: application/pdf",
      "",
      "%PDF-1.4 ",
    ].join("\r\n");
    let sent = false;
    const request = new Request("http://localhost/freizeit/create", {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Cookie: cookie },
      body: new ReadableStream({
        pull(controller) {
          if (sent) return controller.error(new Error("connection reset"));
          sent = true;
          controller.enqueue(new TextEncoder().encode(head + "x".repeat(200_000)));
        },
      }),
      duplex: "half",
    } as RequestInit);
    const response = await run(createAction, { request, params: {}, context: {} });
    expect(response.status).toBe(400);
    expect(tempFiles()).toEqual([]);
    expect(db.select().from(events).all()).toEqual([]);
  });
});

describe("what a hand-made form sends", () => {
  type Answer = { fileErrors: Record<string, string> };

  it("two files in the picture field: a message at the Foto field, nothing stored, never a 500", async () => {
    const pictures = [{ name: "eins.png", bytes: pngBytes() }, { name: "zwei.png", bytes: pngBytes() }];
    const created = await postEvent([], pictures);
    expect(created.status).toBe(400);
    expect((await body<Answer>(created)).fileErrors.picture).toBe("Bitte wählen Sie nur ein Foto aus.");
    expect(db.select().from(events).all()).toEqual([]);

    const event = createEvent({ title: "Altes Lager" });
    const edited = await run(editAction, { ...multipartPost(`/freizeit/edit/${event.id}`, validEventFields(), { picture: pictures }, cookie), params: { freizeitId: String(event.id) } });
    expect(edited.status).toBe(400);
    expect((await body<Answer>(edited)).fileErrors.picture).toBe("Bitte wählen Sie nur ein Foto aus.");
    expect(db.select().from(files).all()).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it("an empty file is refused by its name (a broken download)", async () => {
    const response = await postEvent([
      { name: "Packliste.pdf", bytes: pdfBytes() },
      { name: "Elternbrief.pdf", bytes: Buffer.alloc(0) },
    ]);
    expect(response.status).toBe(400);
    expect((await body<Answer>(response)).fileErrors.attachments).toBe("Die Datei Elternbrief.pdf ist leer. Bitte wählen Sie die Anhänge erneut aus: Packliste.pdf");
    expect(db.select().from(events).all()).toEqual([]);
    expect(tempFiles()).toEqual([]);

    const two = await postEvent([
      { name: "a.pdf", bytes: Buffer.alloc(0) },
      { name: "b.docx", bytes: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]) },
      { name: "c.pdf", bytes: Buffer.alloc(0) },
    ]);
    expect(two.status).toBe(400);
    const message = (await body<Answer>(two)).fileErrors.attachments;
    expect(message).toContain("Diese Dateien sind leer: a.pdf, c.pdf.");
    expect(message).toContain("Nicht erlaubt: b.docx.");
  });

  it("each limit of the form reader is named for what it is, not always as too many or too large files", async () => {
    const read = async (form: FormData) => {
      const request = new Request("http://localhost/freizeit/create", { method: "POST", body: form });
      return readUploadForm(request, { picture: "picture", attachments: "attachment" }).then(
        () => null,
        (error: unknown) => error as UploadError,
      );
    };
    const manyFields = new FormData();
    for (let i = 0; i < 1001; i++) manyFields.append(`f${i}`, "x");
    expect((await read(manyFields))?.message).toBe("Das Formular enthält zu viele Felder.");

    const longField = new FormData();
    longField.append("description", "x".repeat(65 * 1024));
    const long = await read(longField);
    expect(long?.status).toBe(413);
    expect(long?.message).not.toMatch(/Datei/);

    // 21 files: a person chose one too many. The form is read on (the files after the 20th read
    // past), so that its fields come back with the message beside the file field.
    const manyFiles = new FormData();
    manyFiles.append("title", "Pfingstlager");
    for (let i = 0; i < 21; i++) manyFiles.append("attachments", new File([new Uint8Array(pdfBytes())], `${i}.pdf`));
    manyFiles.append("location", "Plön");
    const chosen = await readUploadForm(new Request("http://localhost/freizeit/create", { method: "POST", body: manyFiles }), { attachments: "attachment" });
    expect(chosen.problems.map((p) => [p.field, p.message, p.status])).toEqual([["attachments", "Zu viele Dateien auf einmal: höchstens 20.", 413]]);
    expect([chosen.formData.get("title"), chosen.formData.get("location")]).toEqual(["Pfingstlager", "Plön"]);
    expect(chosen.uploads).toHaveLength(20);
    await discardUploads(chosen.uploads);
    // 101 files are no browser's form: the whole body is refused.
    const hostile = new FormData();
    for (let i = 0; i < 101; i++) hostile.append("attachments", new File([new Uint8Array(pdfBytes())], `${i}.pdf`));
    expect((await read(hostile))?.message).toBe("Zu viele Dateien auf einmal: höchstens 20.");
    expect(tempFiles()).toEqual([]);
  });

  it("a large file written while the disk waits leaves no listener behind (no MaxListenersExceededWarning)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const big = Buffer.concat([pdfBytes(), Buffer.alloc(9 * 1024 * 1024, 0x20)]);
      const { request } = multipartPost("/freizeit/create", validEventFields(), { attachments: [{ name: "Grosse-Packliste.pdf", bytes: big }] }, cookie);
      // As it comes over a network: in small pieces, each a write the disk may ask to wait for.
      const bytes = new Uint8Array(await request.arrayBuffer());
      let at = 0;
      const chunked = new Request(request.url, {
        method: "POST",
        headers: request.headers,
        body: new ReadableStream({
          pull(controller) {
            if (at >= bytes.length) return controller.close();
            controller.enqueue(bytes.slice(at, (at += 64 * 1024)));
          },
        }),
        duplex: "half",
      } as RequestInit);
      const response = await run(createAction, { request: chunked, params: {}, context: {} });
      expect(response.status).toBe(302);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});

describe("at start", () => {
  it("left-over temp files are removed and the folders made", async () => {
    mkdirSync(path.join(uploads(), ".tmp"), { recursive: true });
    writeFileSync(path.join(uploads(), ".tmp", "abgebrochen"), "x");
    await cleanTempUploads();
    expect(tempFiles()).toEqual([]);
    for (const folder of ["pictures", "attachments", "legal"]) expect(existsSync(path.join(uploads(), folder))).toBe(true);
  });

  it("an upload folder that cannot be used stops the start with a message naming it", async () => {
    mkdirSync(path.dirname(uploads()), { recursive: true });
    writeFileSync(uploads(), "keine Ordner");
    await expect(cleanTempUploads()).rejects.toThrow(`Der Upload-Ordner ${uploads()} ist nicht beschreibbar`);
    rmSync(uploads());
  });

  it("nothing else in the folder is touched", async () => {
    mkdirSync(path.join(uploads(), "attachments"), { recursive: true });
    writeFileSync(path.join(uploads(), "attachments", "bleibt.pdf"), "x");
    await cleanTempUploads();
    expect(readdirSync(path.join(uploads(), "attachments"))).toEqual(["bleibt.pdf"]);
    expect(db.select().from(files).where(eq(files.id, -1)).all()).toEqual([]);
  });
});
