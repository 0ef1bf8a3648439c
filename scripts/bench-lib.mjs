// Pieces of `npm run bench` (scripts/bench.mjs): starting servers, autocannon runs, the plain
// node:http limit, and the enrolment burst built from the form the server renders.
import { spawn } from "node:child_process";
import http from "node:http";
import { connect, createServer } from "node:net";
import autocannon from "autocannon";

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request with node:http, as a browser asks: compressed answers accepted (unless `text` is
 * wanted), the body read to its end. For the sequential page times one kept-alive connection;
 * undici's fetch adds about 2 ms and pauses of its own to every figure on a 2-core machine (its
 * streams, decompression and garbage), which would measure the client rather than the server.
 * `through`: another agent (the burst: a connection per family). `raw`: the body's bytes as sent.
 */
export function send(url, { method = "GET", headers = {}, body, text = false, raw = false, through = agent } = {}) {
  const payload = body === undefined ? undefined : String(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent: through,
        headers: { ...(text ? {} : { "Accept-Encoding": "br, gzip" }), ...headers, ...(payload === undefined ? {} : { "Content-Length": Buffer.byteLength(payload) }) },
      },
      (response) => {
        let bytes = 0;
        const chunks = [];
        response.on("data", (chunk) => {
          bytes += chunk.length;
          if (text || raw) chunks.push(chunk);
        });
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            bytes,
            headers: { get: (name) => response.headers[name.toLowerCase()] ?? null },
            text: async () => Buffer.concat(chunks).toString("utf8"),
            ...(raw ? { body: Buffer.concat(chunks) } : {}),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** Starts server.mjs with `env` and waits for /healthz. */
export async function startServer(env) {
  const child = spawn(process.execPath, ["server.mjs"], { env, stdio: ["ignore", "ignore", "inherit"] });
  const base = `http://127.0.0.1:${env.PORT}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server stopped at start (exit ${child.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error("server did not start");
    await pause(100);
  }
  await pause(200);
  if (child.exitCode !== null) throw new Error(`server stopped at start (exit ${child.exitCode})`);
  return {
    base,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/**
 * Requests/s and latency percentiles at `connections` for `durationS` seconds (autocannon); every
 * answer must have `status`, anything else counts as an error.
 */
export async function load(url, { cookie, connections = 20, durationS = 10, status = 200 } = {}) {
  const times = [];
  let wrong = 0;
  // As a browser asks: compressed answers accepted (the page cache must hold for them too).
  const headers = { "accept-encoding": BROWSER_ENCODINGS, ...(cookie ? { cookie } : {}) };
  const instance = autocannon({ url, connections, duration: durationS, headers });
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    if (statusCode !== status) wrong++;
  });
  const result = await instance;
  return {
    requestsPerSecond: Math.round(result.requests.total / (result.duration || durationS)),
    requests: result.requests.total,
    p50: at(times, 0.5),
    p95: at(times, 0.95),
    p99: at(times, 0.99),
    errors: result.errors + result.timeouts + wrong,
  };
}

/** What a browser's Accept-Encoding says. */
export const BROWSER_ENCODINGS = "gzip, deflate, br";

/**
 * A plain node:http server in a process of its own, answering every request with `body` (the
 * bytes as sent, with their Content-Encoding when `encoding` is given).
 */
export async function startLimitServer(port, body, contentType, encoding) {
  const code = `
    const body = Buffer.from(process.env.LIMIT_BODY, "base64");
    const encoding = process.env.LIMIT_ENCODING ? { "Content-Encoding": process.env.LIMIT_ENCODING } : {};
    require("node:http").createServer((req, res) => {
      res.writeHead(200, { "Content-Type": process.env.LIMIT_TYPE, "Content-Length": body.length, ...encoding });
      res.end(body);
    }).listen(Number(process.env.PORT), "127.0.0.1", () => process.send("ready"));`;
  const child = spawn(process.execPath, ["-e", code], {
    env: { ...process.env, PORT: String(port), LIMIT_BODY: body.toString("base64"), LIMIT_TYPE: contentType, LIMIT_ENCODING: encoding ?? "" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise((resolve, reject) => child.once("message", resolve).once("exit", reject));
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM")),
  };
}

/** The fields a browser would send from the page's main POST form (the largest: not the header's logout). */
export function formFields(html) {
  const forms = [...html.matchAll(/<form\b[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/gi)].map((m) => m[1]);
  const form = forms.sort((a, b) => b.length - a.length)[0] ?? "";
  const attr = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];
  const has = (tag, name) => new RegExp(`\\s${name}(?:=|\\s|/?>)`, "i").test(tag);
  const decode = (s) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  const fields = new Map();
  const radios = new Map();
  for (const [tag] of form.matchAll(/<input\b[^>]*>/gi)) {
    const name = attr(tag, "name");
    if (!name) continue;
    const type = (attr(tag, "type") ?? "text").toLowerCase();
    const value = decode(attr(tag, "value") ?? (type === "checkbox" || type === "radio" ? "on" : ""));
    if (type === "radio") {
      if (!radios.has(name)) radios.set(name, []);
      radios.get(name).push(value);
      if (has(tag, "checked")) fields.set(name, value);
    } else if (type === "checkbox") {
      if (has(tag, "checked")) fields.set(name, value);
    } else if (type !== "submit" && type !== "button" && type !== "file") {
      fields.set(name, value);
    }
  }
  for (const [, tag, options] of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
    const name = attr(tag, "name");
    if (!name) continue;
    const all = [...options.matchAll(/<option\b([^>]*)>/gi)].map(([, o]) => ({ value: decode(attr(o, "value") ?? ""), selected: has(o, "selected") }));
    fields.set(name, (all.find((o) => o.selected) ?? all[0])?.value ?? "");
  }
  for (const [, tag, text] of form.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/gi)) {
    const name = attr(tag, "name");
    if (name) fields.set(name, decode(text));
  }
  // A radio group nobody answered: "ja" when offered (the permissions), else its first choice.
  for (const [name, choices] of radios) if (!fields.has(name)) fields.set(name, choices.includes("ja") ? "ja" : choices[0]);
  return fields;
}

function sorted(values) {
  return [...values].sort((a, b) => a - b);
}
export const at = (values, q) => {
  const s = sorted(values);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(s.length * q))] * 10) / 10 : null;
};

// The burst's client. node:http's client costs about 0.4 ms of CPU per request (its parser,
// IncomingMessage streams, agent bookkeeping); for the burst's 1000 requests that is about 0.4 s on
// the same two cores the server uses, 10–15 % of the burst's CPU, time the server then does not
// get. Phones do not share the server's cores, so the burst talks HTTP/1.1 by hand over node:net,
// as autocannon does: requests written as prepared bytes, answers read by the small reader below.

/** A protocol or connection failure whose `code` is its short kind ("closed early", ...). */
const failure = (kind) => Object.assign(new Error(kind), { code: kind });

/** The bytes of one HTTP/1.1 request; `headers` as written (the caller names Host, Content-Length). */
export function requestBytes(method, target, headers, body = "") {
  let head = `${method} ${target} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return Buffer.from(`${head}\r\n${body}`);
}

// The reader's states: the head, then the body by length, by chunks (size line, data, the line
// ending after the data, trailers), or up to the connection's end.
const HEAD = 0, LENGTH = 1, CHUNK_SIZE = 2, CHUNK_DATA = 3, CHUNK_END = 4, TRAILER = 5, UNTIL_CLOSE = 6, DONE = 7;
// Far above what the app sends (a head is under 1 KB); a peer that never ends its head is an error.
const MAX_HEAD = 64 * 1024;
const MAX_LINE = 4096;

/**
 * Reads one HTTP/1.1 answer from the bytes as they arrive, split anywhere (inside the head, a
 * chunk-size line or its CRLF): `feed(chunk)` takes what belongs to this answer and says how many
 * bytes that was; `done` once the body has been read to its end. The body is counted, and kept
 * only with `text` (the POST's answer: its error messages), as a browser needs no copy of a page it
 * only shows. Compressed bodies stay compressed: read to their end is what the timing needs.
 */
export class ResponseReader {
  status = 0;
  /** @type {Record<string, string>} Header names in lower case; a repeated header's values joined by ", ". */
  headers = {};
  bytes = 0;
  done = false;
  #state = HEAD;
  #keep;
  #chunks = [];
  #head = null; // the head's bytes so far, while it spans packets
  #line = ""; // a chunk-size or trailer line so far, while it spans packets
  #left = 0; // body bytes still to come (by length, or of the current chunk)

  constructor({ text = false } = {}) {
    this.#keep = text;
  }

  /** The kept body as UTF-8 (empty without `text`). */
  text() {
    return Buffer.concat(this.#chunks).toString("utf8");
  }

  /** Takes the bytes of `chunk` that belong to this answer; returns how many. Throws on bad HTTP. */
  feed(chunk) {
    let at = 0;
    while (at < chunk.length && this.#state !== DONE) {
      switch (this.#state) {
        case HEAD: {
          const had = this.#head ? this.#head.length : 0;
          const data = had ? Buffer.concat([this.#head, chunk.subarray(at)]) : chunk.subarray(at);
          // The blank line may have begun in an earlier packet: search from 3 bytes before the new ones.
          const end = data.indexOf("\r\n\r\n", Math.max(0, had - 3));
          if (end < 0) {
            if (data.length > MAX_HEAD) throw failure("head too large");
            this.#head = data;
            return chunk.length;
          }
          this.#head = null;
          at += end + 4 - had;
          this.#parseHead(data.toString("latin1", 0, end));
          break;
        }
        case LENGTH:
        case CHUNK_DATA: {
          const n = Math.min(this.#left, chunk.length - at);
          this.#body(chunk.subarray(at, at + n));
          at += n;
          this.#left -= n;
          if (this.#left === 0) {
            if (this.#state === LENGTH) this.#finish();
            else this.#state = CHUNK_END;
          }
          break;
        }
        case UNTIL_CLOSE:
          this.#body(chunk.subarray(at));
          return chunk.length;
        default: {
          // A line (CHUNK_SIZE, CHUNK_END, TRAILER): gather to its LF, which may come later.
          const lf = chunk.indexOf(10, at);
          if (lf < 0) {
            this.#line += chunk.toString("latin1", at);
            if (this.#line.length > MAX_LINE) throw failure("line too long");
            return chunk.length;
          }
          let line = this.#line + chunk.toString("latin1", at, lf);
          this.#line = "";
          at = lf + 1;
          if (line.endsWith("\r")) line = line.slice(0, -1);
          this.#parseLine(line);
        }
      }
    }
    return at;
  }

  /** The connection has ended: the end of a body without length, else the answer is cut off. */
  end() {
    if (this.#state === UNTIL_CLOSE) this.done = true;
    else if (this.#state !== DONE) throw failure("closed early");
  }

  #parseHead(head) {
    const lines = head.split("\r\n");
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0]);
    if (!status) throw failure("bad status line");
    const headers = {};
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(":");
      if (colon <= 0) throw failure("bad header");
      const name = lines[i].slice(0, colon).trim().toLowerCase();
      const value = lines[i].slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    this.status = Number(status[1]);
    this.headers = headers;
    // 1xx answers (100 Continue, 103 Early Hints) come before the real one: read on.
    if (this.status < 200 && this.status !== 101) return;
    if (this.status === 204 || this.status === 304) return this.#finish();
    const coding = headers["transfer-encoding"];
    if (coding !== undefined) {
      // Chunked only when it is the last coding; otherwise the body runs to the close (RFC 9112 6.3).
      this.#state = /(?:^|,)\s*chunked\s*$/i.test(coding) ? CHUNK_SIZE : UNTIL_CLOSE;
      return;
    }
    const length = headers["content-length"];
    if (length === undefined) {
      this.#state = UNTIL_CLOSE;
      return;
    }
    // A repeated Content-Length is fine only with one value every time.
    const values = new Set(length.split(",").map((v) => v.trim()));
    const [only] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) throw failure("bad content-length");
    this.#left = Number(only);
    if (this.#left === 0) return this.#finish();
    this.#state = LENGTH;
  }

  #parseLine(line) {
    if (this.#state === CHUNK_SIZE) {
      // "1a3f" or "1a3f;name=value" (a chunk extension, ignored).
      const size = line.split(";", 1)[0].trim();
      if (!/^[0-9a-f]{1,12}$/i.test(size)) throw failure("bad chunk size");
      this.#left = parseInt(size, 16);
      this.#state = this.#left === 0 ? TRAILER : CHUNK_DATA;
    } else if (this.#state === CHUNK_END) {
      if (line !== "") throw failure("bad chunk end");
      this.#state = CHUNK_SIZE;
    } else if (line === "") {
      this.#finish(); // TRAILER: its blank line ends the answer; trailer fields are skipped
    }
  }

  #body(slice) {
    this.bytes += slice.length;
    if (this.#keep && slice.length) this.#chunks.push(slice);
  }

  #finish() {
    this.#state = DONE;
    this.done = true;
  }
}

/**
 * One phone: a kept-alive connection to `base` that asks one request at a time (`ask(bytes)`,
 * bytes from requestBytes) and resolves with its answer's ResponseReader (status, headers, bytes,
 * text()). The connection is opened by the first request, so its opening is part of what that
 * request waits for, as on a phone; opened again when the server closed it (`Connection: close`,
 * idle timeout). A socket error or a cut-off answer rejects with an error whose `code` is short:
 * "ECONNRESET", "ECONNREFUSED", "closed early", "bad chunk size", ...
 */
export class Phone {
  #host;
  #port;
  #socket = null;
  #reader = null;
  #settle = null; // [resolve, reject] of the request in flight
  #early = null; // bytes that came with no request in flight (belong to the next answer)

  constructor(base) {
    const url = new URL(base);
    this.#host = url.hostname;
    this.#port = Number(url.port) || 80;
  }

  ask(request, { text = false } = {}) {
    if (this.#reader) return Promise.reject(new Error("one request at a time"));
    return new Promise((resolve, reject) => {
      this.#reader = new ResponseReader({ text });
      this.#settle = [resolve, reject];
      if (!this.#socket) this.#connect();
      this.#socket.write(request);
      if (this.#early) {
        const early = this.#early;
        this.#early = null;
        this.#data(this.#socket, early);
      }
    });
  }

  close() {
    this.#socket?.destroy();
    this.#socket = null;
    this.#early = null;
  }

  #connect() {
    // Writes before the connection is up wait in the socket; no delay: each request is one write.
    const socket = connect({ host: this.#host, port: this.#port });
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.#data(socket, chunk));
    socket.on("end", () => this.#ended(socket));
    socket.on("close", () => this.#ended(socket));
    socket.on("error", (error) => this.#fail(socket, error.code ?? error.message));
    this.#socket = socket;
  }

  // Every handler first asks whether its socket is still this phone's: a connection the phone
  // has left (closed by the server, or by us after `Connection: close`) must not answer, or fail,
  // the request now in flight on the next one.

  #data(socket, chunk) {
    if (socket !== this.#socket) return;
    const reader = this.#reader;
    if (!reader) {
      this.#early = this.#early ? Buffer.concat([this.#early, chunk]) : chunk;
      return;
    }
    let used;
    try {
      used = reader.feed(chunk);
    } catch (error) {
      this.#fail(socket, error.code ?? String(error));
      return;
    }
    if (!reader.done) return;
    // The server said it closes: the next request opens a new connection, as a browser would.
    if (/(?:^|,)\s*close\s*(?:,|$)/i.test(reader.headers.connection ?? "")) this.close();
    else if (used < chunk.length) this.#early = chunk.subarray(used);
    this.#resolved(reader);
  }

  #ended(socket) {
    if (socket !== this.#socket) return;
    this.#socket = null;
    this.#early = null;
    const reader = this.#reader;
    if (!reader) return; // idle: the next request connects again
    try {
      reader.end();
    } catch (error) {
      this.#rejected(error);
      return;
    }
    this.#resolved(reader);
  }

  #fail(socket, kind) {
    if (socket !== this.#socket) return socket.destroy();
    this.close();
    if (this.#reader) this.#rejected(failure(kind));
  }

  #resolved(reader) {
    const [resolve] = this.#settle;
    this.#reader = this.#settle = null;
    resolve(reader);
  }

  #rejected(error) {
    const [, reject] = this.#settle;
    this.#reader = this.#settle = null;
    reject(error);
  }
}

/**
 * The enrolment burst: every family loads the enrolment form (one after another), then all post
 * at the same moment and follow the redirect to their confirmation. Times are post + confirmation,
 * from the opening of the family's connection (a phone has none open before it posts).
 */
export async function enrolmentBurst(base, eventId, families) {
  const bodies = [];
  for (const family of families) {
    const page = await send(`${base}/enroll/${eventId}`, { headers: { Cookie: family.cookie }, text: true });
    if (page.status !== 200) throw new Error(`enrolment form: ${page.status}`);
    const fields = formFields(await page.text());
    // As the concurrency test in tests/e2e/enrollment.test.ts: the family's child, by transfer.
    fields.set("intent", "submit");
    fields.set("boxes[0].participant", String(family.childId));
    fields.set("paymentMethod", "transfer");
    fields.set("terms", "on");
    bodies.push(new URLSearchParams([...fields]).toString());
  }
  // Every POST's bytes ready before the start, so the burst's client does nothing but send and read.
  // No Accept-Encoding on the POST: its answer is read as text (a 302, or the form with its messages).
  const { host } = new URL(base);
  const posts = families.map((family, i) =>
    requestBytes(
      "POST",
      `/enroll/${eventId}`,
      {
        Host: host,
        Cookie: family.cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: base,
        "Content-Length": Buffer.byteLength(bodies[i]),
        Connection: "keep-alive",
      },
      bodies[i],
    ),
  );
  // Each family on its own connection, as 500 phones would be; all kept open to the end.
  const phones = families.map(() => new Phone(base));
  const started = performance.now();
  const outcomes = await Promise.all(
    families.map(async (family, i) => {
      const phone = phones[i];
      const t0 = performance.now();
      try {
        const posted = await phone.ask(posts[i], { text: true });
        const location = posted.headers.location;
        if (posted.status !== 302 || !location?.startsWith("/anmeldung/")) {
          // The German messages of the answer say what the form wanted.
          const said = [...posted.text().matchAll(/class="field-errors"[^>]*>\s*(?:<li[^>]*>)?([^<]{3,160})</gi)].map((m) => m[1]).slice(0, 2);
          return { error: `POST ${posted.status}${said.length ? `: ${said.join(" / ")}` : ""}` };
        }
        // As a browser asks for the page: compressed; the body is read to its end, not unpacked.
        const confirmation = await phone.ask(
          requestBytes("GET", location, { Host: host, Cookie: family.cookie, "Accept-Encoding": "br, gzip", Connection: "keep-alive" }),
        );
        if (confirmation.status !== 200) return { error: `confirmation ${confirmation.status}` };
        return { ms: performance.now() - t0 };
      } catch (error) {
        return { error: String(error?.code ?? error?.cause?.code ?? error) };
      }
    }),
  );
  for (const phone of phones) phone.close();
  const times = outcomes.filter((o) => o.ms !== undefined).map((o) => o.ms);
  const errors = outcomes.filter((o) => o.error).map((o) => o.error);
  return { parents: families.length, totalMs: Math.round(performance.now() - started), p50: at(times, 0.5), p99: at(times, 0.99), errors: errors.length, errorKinds: [...new Set(errors)].slice(0, 5) };
}
