// Pieces of `npm run bench` (scripts/bench.mjs): starting servers, autocannon runs, the plain
// node:http limit, and the enrolment burst built from the form the server renders.
import { spawn } from "node:child_process";
import http from "node:http";
import { createServer } from "node:net";
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
 * `through`: another agent (the burst: a connection per family).
 */
export function send(url, { method = "GET", headers = {}, body, text = false, through = agent } = {}) {
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
          if (text) chunks.push(chunk);
        });
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            bytes,
            headers: { get: (name) => response.headers[name.toLowerCase()] ?? null },
            text: async () => Buffer.concat(chunks).toString("utf8"),
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
  const instance = autocannon({ url, connections, duration: durationS, headers: cookie ? { cookie } : {} });
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

/** A plain node:http server in a process of its own, answering every request with `body`. */
export async function startLimitServer(port, body, contentType) {
  const code = `
    const body = Buffer.from(process.env.LIMIT_BODY, "base64");
    require("node:http").createServer((req, res) => {
      res.writeHead(200, { "Content-Type": process.env.LIMIT_TYPE, "Content-Length": body.length });
      res.end(body);
    }).listen(Number(process.env.PORT), "127.0.0.1", () => process.send("ready"));`;
  const child = spawn(process.execPath, ["-e", code], {
    env: { ...process.env, PORT: String(port), LIMIT_BODY: body.toString("base64"), LIMIT_TYPE: contentType },
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

/**
 * The enrolment burst: every family loads the enrolment form (one after another), then all post
 * at the same moment and follow the redirect to their confirmation. Times are post + confirmation.
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
  // Each family on its own connection, as 500 phones would be.
  const phones = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const started = performance.now();
  const outcomes = await Promise.all(
    families.map(async (family, i) => {
      const t0 = performance.now();
      try {
        const posted = await send(`${base}/enroll/${eventId}`, {
          method: "POST",
          headers: { Cookie: family.cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: base },
          body: bodies[i],
          text: true,
          through: phones,
        });
        const answer = await posted.text();
        const location = posted.headers.get("location");
        if (posted.status !== 302 || !location?.startsWith("/anmeldung/")) {
          // The German messages of the answer say what the form wanted.
          const said = [...answer.matchAll(/class="field-errors"[^>]*>\s*(?:<li[^>]*>)?([^<]{3,160})</gi)].map((m) => m[1]).slice(0, 2);
          return { error: `POST ${posted.status}${said.length ? `: ${said.join(" / ")}` : ""}` };
        }
        const confirmation = await send(base + location, { headers: { Cookie: family.cookie }, through: phones });
        if (confirmation.status !== 200) return { error: `confirmation ${confirmation.status}` };
        return { ms: performance.now() - t0 };
      } catch (error) {
        return { error: String(error?.code ?? error?.cause?.code ?? error) };
      }
    }),
  );
  phones.destroy();
  const times = outcomes.filter((o) => o.ms !== undefined).map((o) => o.ms);
  const errors = outcomes.filter((o) => o.error).map((o) => o.error);
  return { parents: families.length, totalMs: Math.round(performance.now() - started), p50: at(times, 0.5), p99: at(times, 0.99), errors: errors.length, errorKinds: [...new Set(errors)].slice(0, 5) };
}
