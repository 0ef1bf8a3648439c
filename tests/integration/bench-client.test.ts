// The bench's burst client (scripts/bench-lib.mjs): HTTP/1.1 by hand over node:net, so the burst
// measures the server rather than node:http's client. Its answer reader must be right however the
// bytes arrive, and the burst must report what went wrong in the same words as before.
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Phone, ResponseReader, enrolmentBurst, requestBytes } from "../../scripts/bench-lib.mjs";

const servers: (http.Server | net.Server)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Starts `server` on a free local port; returns its base address. */
async function listen(server: http.Server | net.Server) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

/** A net server that answers each connection's first request with `answer`, then does `then`. */
function rawServer(answer: string, { byteByByte = false, then = "keep" as "keep" | "end" } = {}) {
  return net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.once("data", async () => {
      const bytes = Buffer.from(answer);
      if (byteByByte) {
        // One write per byte, with a pause so that they arrive as packets of their own.
        for (const byte of bytes) {
          socket.write(Buffer.of(byte));
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      } else socket.write(bytes);
      if (then === "end") socket.end();
    });
  });
}

const get = (base: string, path = "/", headers: Record<string, string> = {}) =>
  requestBytes("GET", path, { Host: new URL(base).host, Connection: "keep-alive", ...headers });

/** The reader's result after `parts` arrive one after another; throws if it is not done. */
function read(parts: Buffer[], text = true) {
  const reader = new ResponseReader({ text });
  let used = 0;
  for (const part of parts) used += reader.feed(part);
  expect(reader.done).toBe(true);
  return { status: reader.status, headers: reader.headers, bytes: reader.bytes, body: reader.text(), used };
}

const chunked =
  "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTRANSFER-ENCODING: chunked\r\n\r\n" +
  "5\r\nHallo\r\n" +
  "1;ext=1\r\n,\r\n" +
  "B \r\n Lagerfeuer\r\n" +
  "0\r\nX-Trailer: ja\r\n\r\n";

describe("ResponseReader", () => {
  it("reads a chunked answer split at every pair of byte boundaries, with extensions and trailers", () => {
    const bytes = Buffer.from(chunked);
    const whole = read([bytes]);
    expect(whole).toMatchObject({ status: 200, body: "Hallo, Lagerfeuer", bytes: 17, used: bytes.length });
    expect(whole.headers["transfer-encoding"]).toBe("chunked");
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        expect(read([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)])).toEqual(whole);
      }
    }
  });

  it("reads a Content-Length answer one byte at a time and leaves what follows it", () => {
    const answer = "HTTP/1.1 302 Found\r\nlocation: /anmeldung/7\r\nContent-Length: 4\r\n\r\nabcdHTTP/1.1";
    const bytes = Buffer.from(answer);
    const reader = new ResponseReader({ text: true });
    let used = 0;
    for (let i = 0; i < bytes.length && !reader.done; i++) used += reader.feed(bytes.subarray(i, i + 1));
    expect(reader).toMatchObject({ status: 302, done: true, bytes: 4 });
    expect(reader.headers.location).toBe("/anmeldung/7");
    expect(reader.text()).toBe("abcd");
    expect(used).toBe(answer.indexOf("abcd") + 4);
    // All in one packet: the next answer's bytes are not taken.
    expect(read([bytes]).used).toBe(used);
  });

  it("skips 1xx answers, reads 204 without a body and counts a body it does not keep", () => {
    expect(read([Buffer.from("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nX: 1\r\n\r\n")])).toMatchObject({ status: 204, bytes: 0, headers: { x: "1" } });
    expect(read([Buffer.from(chunked)], false)).toMatchObject({ bytes: 17, body: "" });
  });

  it("reads to the connection's end without a length, and calls a cut-off answer 'closed early'", () => {
    const open = new ResponseReader();
    open.feed(Buffer.from("HTTP/1.1 200 OK\r\n\r\nbis zum Ende"));
    expect(open.done).toBe(false);
    open.end();
    expect(open).toMatchObject({ done: true, bytes: 12 });

    const cut = new ResponseReader();
    cut.feed(Buffer.from("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
    expect(() => cut.end()).toThrow(expect.objectContaining({ code: "closed early" }));
    const cutInChunk = new ResponseReader();
    cutInChunk.feed(Buffer.from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"));
    expect(() => cutInChunk.end()).toThrow(expect.objectContaining({ code: "closed early" }));
  });

  it("rejects broken HTTP with a short kind", () => {
    const kind = (answer: string) => {
      try {
        new ResponseReader().feed(Buffer.from(answer));
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return "no error";
    };
    expect(kind("SMTP 220 hallo\r\n\r\n")).toBe("bad status line");
    expect(kind("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")).toBe("bad chunk size");
    expect(kind("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n")).toBe("bad chunk end");
    expect(kind("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n")).toBe("bad content-length");
  });
});

describe("Phone", () => {
  it("reads Content-Length and chunked answers from node:http on one kept-alive connection", async () => {
    let connections = 0;
    const page = "<p>Anmeldung bestätigt</p>".repeat(200);
    const server = http.createServer((req, res) => {
      if (req.url === "/length") {
        res.writeHead(200, { "Content-Length": Buffer.byteLength(page) }).end(page);
      } else {
        // No length: node:http sends it chunked, in the pieces written.
        res.writeHead(200);
        res.write(page.slice(0, 100));
        setTimeout(() => res.end(page.slice(100)), 5);
      }
    });
    server.on("connection", () => connections++);
    const base = await listen(server);
    const phone = new Phone(base);
    try {
      const byLength = await phone.ask(get(base, "/length"), { text: true });
      expect(byLength.text()).toBe(page);
      const byChunks = await phone.ask(get(base, "/chunked"), { text: true });
      expect(byChunks.headers["transfer-encoding"]).toBe("chunked");
      expect(byChunks.text()).toBe(page);
      expect(byChunks.bytes).toBe(Buffer.byteLength(page));
      expect(connections).toBe(1);
    } finally {
      phone.close();
    }
  });

  it("reads answers that arrive one byte per packet", async () => {
    const base = await listen(rawServer(chunked, { byteByByte: true }));
    const phone = new Phone(base);
    try {
      const answer = await phone.ask(get(base), { text: true });
      expect(answer.status).toBe(200);
      expect(answer.text()).toBe("Hallo, Lagerfeuer");
    } finally {
      phone.close();
    }
    const base2 = await listen(rawServer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfünf", { byteByByte: true }));
    const phone2 = new Phone(base2);
    try {
      expect((await phone2.ask(get(base2), { text: true })).text()).toBe("fünf");
    } finally {
      phone2.close();
    }
  });

  it("fails a connection closed mid-body as 'closed early', and a refused one by its code", async () => {
    const base = await listen(rawServer("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\nnur ein Teil", { then: "end" }));
    const phone = new Phone(base);
    await expect(phone.ask(get(base))).rejects.toMatchObject({ code: "closed early" });
    phone.close();

    const refusing = net.createServer();
    const gone = await listen(refusing);
    await new Promise((resolve) => refusing.close(resolve));
    servers.splice(servers.indexOf(refusing), 1);
    const nobody = new Phone(gone);
    await expect(nobody.ask(get(gone))).rejects.toMatchObject({ code: "ECONNREFUSED" });
    nobody.close();
  });

  it("opens a new connection after an answer with Connection: close", async () => {
    let connections = 0;
    const server = http.createServer((_req, res) => res.writeHead(200, { Connection: "close", "Content-Length": 2 }).end("ok"));
    server.on("connection", () => connections++);
    const base = await listen(server);
    const phone = new Phone(base);
    try {
      expect((await phone.ask(get(base))).status).toBe(200);
      expect((await phone.ask(get(base))).status).toBe(200);
      expect(connections).toBe(2);
    } finally {
      phone.close();
    }
  });
});

describe("enrolmentBurst", () => {
  const form = `<html><body>
    <form method="post" action="/logout"><button>Abmelden</button></form>
    <form method="post"><input type="hidden" name="csrf" value="a&amp;b"><input name="boxes[0].participant"><select name="shirt"><option value="M">M</option></select><button type="submit">Anmelden</button></form>
  </body></html>`;
  const families = Array.from({ length: 20 }, (_, i) => ({ cookie: `__session=familie-${i}`, childId: 100 + i }));

  /**
   * A stand-in for the app: the form, the POST (`post` decides its answer) and the confirmation
   * (`confirm`); it notes what each POST brought and on which connection each request came.
   */
  async function app({ post, confirm }: { post: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void; confirm?: (res: http.ServerResponse) => void }) {
    const seen = { posts: [] as { headers: http.IncomingHttpHeaders; body: URLSearchParams }[], gets: [] as http.IncomingHttpHeaders[], sameConnection: 0 };
    const posted = new WeakSet<net.Socket>();
    const server = http.createServer((req, res) => {
      if (req.method === "GET" && req.url === "/enroll/7") return res.writeHead(200, { "Content-Type": "text/html" }).end(form);
      if (req.method === "POST" && req.url === "/enroll/7") {
        let body = "";
        req.setEncoding("utf8").on("data", (part) => (body += part));
        req.on("end", () => {
          seen.posts.push({ headers: req.headers, body: new URLSearchParams(body) });
          posted.add(req.socket);
          post(req, body, res);
        });
        return;
      }
      seen.gets.push(req.headers);
      if (posted.has(req.socket)) seen.sameConnection++;
      if (confirm) return confirm(res);
      // The confirmation chunked, in two pieces, as a streamed Remix page.
      res.writeHead(200, { "Content-Type": "text/html" });
      res.write("x".repeat(3000));
      setImmediate(() => res.end("y".repeat(2000)));
    });
    return { base: await listen(server), seen };
  }

  it("posts every family's form, follows the 302 on the same connection and times both", async () => {
    const { base, seen } = await app({
      post: (req, _body, res) => res.writeHead(302, { Location: `/anmeldung/${req.headers.cookie?.split("-")[1]}` }).end(),
    });
    const result = await enrolmentBurst(base, 7, families);
    expect(result).toMatchObject({ parents: 20, errors: 0, errorKinds: [] });
    expect(Object.keys(result).sort()).toEqual(["errorKinds", "errors", "p50", "p99", "parents", "totalMs"]);
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50!);
    expect(seen.posts).toHaveLength(20);
    expect(seen.sameConnection).toBe(20);
    const first = seen.posts.find((p) => p.headers.cookie === "__session=familie-3")!;
    expect(first.headers).toMatchObject({ host: new URL(base).host, origin: base, "content-type": "application/x-www-form-urlencoded", connection: "keep-alive" });
    expect(Number(first.headers["content-length"])).toBeGreaterThan(0);
    expect(Object.fromEntries(first.body)).toEqual({ csrf: "a&b", "boxes[0].participant": "103", shirt: "M", intent: "submit", paymentMethod: "transfer", terms: "on" });
    expect(seen.gets.every((h) => h["accept-encoding"] === "br, gzip" && h.cookie?.startsWith("__session=familie-"))).toBe(true);
  });

  it("reports a refused POST with its status and the form's German messages", async () => {
    const { base } = await app({
      post: (_req, _body, res) =>
        res
          .writeHead(400, { "Content-Type": "text/html; charset=utf-8" })
          .end(`<form><ul class="field-errors"><li>Bitte wähle ein Kind aus.</li></ul><ul class="field-errors" id="t"><li>Bitte stimme den Bedingungen zu.</li></ul><ul class="field-errors"><li>Dritte Meldung</li></ul></form>`),
    });
    const result = await enrolmentBurst(base, 7, families.slice(0, 3));
    expect(result).toMatchObject({ parents: 3, errors: 3, p50: null, p99: null, errorKinds: ["POST 400: Bitte wähle ein Kind aus. / Bitte stimme den Bedingungen zu."] });
  });

  it("counts a redirect elsewhere, a failed confirmation and a confirmation cut off mid-body as errors", async () => {
    const elsewhere = await app({ post: (_req, _body, res) => res.writeHead(302, { Location: "/login" }).end() });
    expect((await enrolmentBurst(elsewhere.base, 7, families.slice(0, 2))).errorKinds).toEqual(["POST 302"]);

    const failing = await app({
      post: (_req, _body, res) => res.writeHead(302, { Location: "/anmeldung/1" }).end(),
      confirm: (res) => res.writeHead(500, { "Content-Length": 6 }).end("Fehler"),
    });
    expect(await enrolmentBurst(failing.base, 7, families.slice(0, 2))).toMatchObject({ errors: 2, errorKinds: ["confirmation 500"] });

    const cut = await app({
      post: (_req, _body, res) => res.writeHead(302, { Location: "/anmeldung/1" }).end(),
      confirm: (res) => {
        res.writeHead(200, { "Content-Length": 5000 });
        res.write("nur ein Teil", () => res.socket?.end());
      },
    });
    expect(await enrolmentBurst(cut.base, 7, families.slice(0, 2))).toMatchObject({ errors: 2, errorKinds: ["closed early"] });
  });
});
