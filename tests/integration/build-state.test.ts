// `npm start` and the browser tests serve `build/` only when it is the production build of the
// sources as they are: a missing build, one older than the sources, or the development build
// `npm run dev` leaves behind (React's development code, served as if it were the real one)
// is made again first (a newcomer's review).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { buildMode, staleBuild } from "../../scripts/build-state.mjs";

/** The shape of `remix build`'s server build: the mode in a minified declaration, exported as `mode`. */
const serverBuild = (mode: string) =>
  `var mode2 = "${mode}", assetsBuildDirectory = "public/build", publicPath = "/build/";\n` +
  `export {\n  assets_manifest_default as assets,\n  entry,\n  mode2 as mode,\n  routes\n};\n`;

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A project folder with its sources at `sourcesAt` and a build of `mode` at `builtAt` (ms). */
function project({ mode, sourcesAt, builtAt }: { mode?: string; sourcesAt: number; builtAt: number }) {
  const dir = mkdtempSync(path.join(tmpdir(), "lagerfeuer-build-state-"));
  root = dir;
  const at = (file: string, ms: number) => utimesSync(file, ms / 1000, ms / 1000);
  for (const folder of ["app/routes", "db", "public/build"]) mkdirSync(path.join(dir, folder), { recursive: true });
  for (const file of ["app/root.tsx", "app/routes/_index.tsx", "db/schema.ts", "remix.config.js", "package.json"]) {
    writeFileSync(path.join(dir, file), "//");
    at(path.join(dir, file), sourcesAt);
  }
  if (mode) {
    mkdirSync(path.join(dir, "build"));
    writeFileSync(path.join(dir, "build/index.js"), serverBuild(mode));
    at(path.join(dir, "build/index.js"), builtAt);
  }
  return dir;
}

describe("the build npm start serves", () => {
  it("reads the mode a server build was made in", () => {
    expect(buildMode(serverBuild("production"))).toBe("production");
    expect(buildMode(serverBuild("development"))).toBe("development");
    expect(buildMode("export { x as y };")).toBeUndefined();
  });

  it("is made when missing", () => {
    expect(staleBuild(project({ sourcesAt: 1_000_000, builtAt: 0 }))).toMatch(/kein Build/);
  });

  it("is made again when a source is newer", () => {
    expect(staleBuild(project({ mode: "production", sourcesAt: 2_000_000, builtAt: 1_000_000 }))).toMatch(/älter als/);
  });

  it("is made again when npm run dev left a development build", () => {
    expect(staleBuild(project({ mode: "development", sourcesAt: 1_000_000, builtAt: 2_000_000 }))).toMatch(/Entwicklungs-Build/);
  });

  it("is served as it is when it is the production build of the sources", () => {
    expect(staleBuild(project({ mode: "production", sourcesAt: 1_000_000, builtAt: 2_000_000 }))).toBeNull();
  });

  it("is made again when the browser assets are missing", () => {
    const dir = project({ mode: "production", sourcesAt: 1_000_000, builtAt: 2_000_000 });
    rmSync(path.join(dir, "public/build"), { recursive: true });
    expect(staleBuild(dir)).toMatch(/public\/build/);
  });
});

// Carried review point: `npm start` printed its build as plain text (Remix's English lines) before
// the server's JSON log, so a log collector met lines it could not read.
describe("npm start's build step", () => {
  /** Runs the build step of `npm start` in `dir`, whose remix compiler prints `lines` and exits with `code`. */
  function buildStep(dir: string, lines: string[], code: number) {
    const cli = path.join(dir, "node_modules/@remix-run/dev/dist/cli.js");
    mkdirSync(path.dirname(cli), { recursive: true });
    writeFileSync(cli, `${lines.map((line) => `console.log(${JSON.stringify(line)});`).join("\n")}\nconsole.error("warn: something");\nprocess.exit(${code});\n`);
    const module = pathToFileURL(path.resolve("scripts/build-state.mjs")).href;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", `const { buildForStart } = await import(${JSON.stringify(module)}); process.exit(buildForStart() ? 0 : 3);`], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, LOG_LEVEL: "info" },
    });
    const json = (text: string) => text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, json };
  }

  it("says why it builds and that it built as JSON lines in German, the compiler's own output left out", () => {
    const dir = project({ sourcesAt: 1_000_000, builtAt: 0 });
    const run = buildStep(dir, ["Building Remix app in production mode...", "Built in 1.2s"], 0);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.json(run.stdout);
    expect(lines.map((line) => line.msg)).toEqual(["Es gibt noch kein Build. Baue die App …", expect.stringMatching(/^App gebaut in \d+,\d s\.$/)]);
  });

  it("says nothing when the build may be served as it is", () => {
    const run = buildStep(project({ mode: "production", sourcesAt: 1_000_000, builtAt: 2_000_000 }), ["Built"], 0);
    expect(run).toMatchObject({ status: 0, stdout: "", stderr: "" });
  });

  it("shows the compiler's output when the build fails, then why the start ends as a JSON line", () => {
    const run = buildStep(project({ sourcesAt: 1_000_000, builtAt: 0 }), ["✘ [ERROR] Expected \";\" but found \"}\""], 1);
    expect(run.status).toBe(3);
    expect(run.json(run.stdout).map((line) => line.msg)).toEqual(["Es gibt noch kein Build. Baue die App …"]);
    const [compiler, ...rest] = run.stderr.split(/\n(?=\{)/);
    expect(compiler).toContain("[ERROR] Expected");
    expect(run.json(rest.join("\n"))).toEqual([expect.objectContaining({ level: 60, msg: "Die App ließ sich nicht bauen (die Meldungen des Compilers stehen darüber). Der Server startet nicht." })]);
  });
});
