// `npm start` and the browser tests serve `build/` only when it is the production build of the
// sources as they are: a missing build, one older than the sources, or the development build
// `npm run dev` leaves behind (React's development code, served as if it were the real one)
// is made again first (a newcomer's review).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
