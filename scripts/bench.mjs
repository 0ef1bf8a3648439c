// `npm run bench`: the demo data at its large size (200 events, 5,000 registrations) on a
// temporary database, the production server, and the p50/p95 answer time of every page, as a
// signed-out visitor, a parent and an admin. Fails when a page's p95 is over the budget.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 3999);
const base = `http://127.0.0.1:${PORT}`;
const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-bench-"));
const env = { ...process.env, NODE_ENV: "production", PORT: String(PORT), DATABASE_PATH: path.join(dir, "bench.db"), MAIL_DIR: path.join(dir, "mail"), UPLOADS_DIR: path.join(dir, "uploads") };

if (spawnSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "build"], { stdio: "inherit", env }).status !== 0) process.exit(1);
const seeded = spawnSync(path.resolve("node_modules/.bin/tsx"), ["db/seed-demo.ts", "--events", "200", "--users", "1500", "--registrations", "5000"], { stdio: "inherit", env });
if (seeded.status !== 0) process.exit(1);

const server = spawn(process.execPath, ["server.mjs"], { env, stdio: ["ignore", "ignore", "inherit"] });
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  async function signIn(email) {
    const response = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
      body: new URLSearchParams({ email, password: "Lagerfeuer-Demo-1" }),
    });
    return response.headers.get("set-cookie").split(";")[0];
  }
  const admin = await signIn("leitung1@lagerfeuer.test");
  const parent = await signIn("eltern1@lagerfeuer.test");
  const pages = [
    ["/", null],
    ["/", parent],
    ["/", admin],
    ["/?filter=mine", parent],
    ["/freizeit/1", null],
    ["/freizeit/1", parent],
    ["/freizeit/1", admin],
    ["/enroll/1", parent],
    ["/account", parent],
    ["/account?tab=teilnehmer", parent],
    ["/account/10?tab=teilnehmer", admin],
    ["/freizeit/create", admin],
    ["/freizeit/edit/1", admin],
    ["/login", null],
    ["/signup", null],
    ["/healthz", null],
    ["/gott", admin],
    ["/gott?tab=benutzer", admin],
    ["/gott?tab=benutzer&seite=20", admin],
    ["/gott?tab=benutzer&q=eltern", admin],
    ["/gott?tab=protokoll", admin],
  ];
  let failed = false;
  console.log(`\n${"page".padEnd(30)} ${"as".padEnd(8)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)}`);
  async function measure(label, cookie, send, expected = 200) {
    const times = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const response = await send(i);
      await response.arrayBuffer();
      if (response.status !== expected) throw new Error(`${label}: ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(ROUNDS / 2)];
    const p95 = times[Math.floor(ROUNDS * 0.95)];
    const as = cookie === admin ? "admin" : cookie === parent ? "parent" : "visitor";
    if (p95 > BUDGET_MS) failed = true;
    console.log(`${label.padEnd(30)} ${as.padEnd(8)} ${p50.toFixed(1).padStart(7)} ${p95.toFixed(1).padStart(7)}${p95 > BUDGET_MS ? "  over budget" : ""}`);
  }
  for (const [url, cookie] of pages) {
    await measure(url, cookie, () => fetch(base + url, { headers: cookie ? { Cookie: cookie } : {} }));
  }

  // The enrolment answer (a new child and guardian each time, one write transaction) and the
  // confirmation page it leads to, on the first event that takes the parent's enrolments.
  const enrol = (eventId, i) =>
    fetch(`${base}/enroll/${eventId}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: parent, "Content-Type": "application/x-www-form-urlencoded", Origin: base },
      body: new URLSearchParams({
        intent: "submit",
        submissionKey: `bench-${eventId}-${i}-abcdefghijklmnop`,
        paymentMethod: "transfer",
        terms: "on",
        "boxes[0].participant": "neu",
        "boxes[0].child.firstName": `Bench${i}`,
        "boxes[0].child.lastName": "Kind",
        "boxes[0].child.street": "Weg 1",
        "boxes[0].child.city": "Kiel",
        "boxes[0].child.birthDate": "2015-01-01",
        "boxes[0].guardian": "neu",
        "boxes[0].newGuardian.firstName": "Bench",
        "boxes[0].newGuardian.lastName": "Eltern",
        "boxes[0].tshirtSize": "M",
        "boxes[0].swimBadge": "Bronze",
        ...Object.fromEntries(["allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe"].map((f) => [`boxes[0].${f}`, "ja"])),
      }),
    });
  let target = null;
  let confirmation = null;
  for (let id = 1; id <= 200 && target === null; id++) {
    const response = await enrol(id, "probe");
    await response.arrayBuffer();
    if (response.status === 302) [target, confirmation] = [id, response.headers.get("location")];
  }
  if (target === null) throw new Error("no event took the bench's enrolment");
  await measure(`POST /enroll/${target}`, parent, (i) => enrol(target, i), 302);
  await measure(confirmation, parent, () => fetch(base + confirmation, { headers: { Cookie: parent } }));
  process.exitCode = failed ? 1 : 0;
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(dir, { recursive: true, force: true });
}
