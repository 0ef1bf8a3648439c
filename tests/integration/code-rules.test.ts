// Two helpers stand in for their framework originals on purpose (docs/decisions/0016): Remix's
// json() costs a byte round trip before every render, conform's parseWithZod rebuilds its coercion
// on every call. The app uses ours everywhere. A link is a plain <a> unless it stays on a page with
// JavaScript and keeps its scroll position and what was typed (decision 0003): Remix's Link costs
// a render of hooks.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATE_FIELD_NAMES, TIME_FIELD_NAMES } from "~/services/form.server";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\./.test(name) ? [full] : [];
  });
}

function importsOf(source: string, from: string) {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    if (match[2] === from) names.push(...match[1].split(",").map((n) => n.trim().replace(/^type\s+/, "")).filter(Boolean));
  }
  return names;
}

describe("the code", () => {
  it("answers with json from services/json.server and parses forms with services/parse-form.server", () => {
    const offenders: string[] = [];
    for (const file of sources("app")) {
      const source = readFileSync(file, "utf8");
      if (importsOf(source, "@remix-run/node").includes("json")) offenders.push(`${file}: json from @remix-run/node`);
      if (importsOf(source, "@remix-run/server-runtime").includes("json")) offenders.push(`${file}: json from @remix-run/server-runtime`);
      if (!file.endsWith(path.join("services", "parse-form.server.ts")) && importsOf(source, "@conform-to/zod").includes("parseWithZod")) {
        offenders.push(`${file}: parseWithZod from @conform-to/zod`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("links with a plain <a>, Remix's Link only where it keeps the scroll position (preventScrollReset)", () => {
    const offenders: string[] = [];
    for (const file of sources("app")) {
      const source = readFileSync(file, "utf8");
      for (const link of source.matchAll(/<(Link|NavLink)\b[^>]*>/g)) {
        if (!/\bpreventScrollReset\b/.test(link[0])) offenders.push(`${file}: ${link[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("the installs", () => {
  it("have the package patches before npm runs: the Docker image's npm ci too", () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    const patchesAt = dockerfile.indexOf("COPY patches ./patches");
    expect(patchesAt).toBeGreaterThan(-1);
    expect(patchesAt).toBeLessThan(dockerfile.indexOf("RUN npm ci"));
    expect(JSON.parse(readFileSync("package.json", "utf8")).scripts.postinstall).toBe("patch-package --error-on-fail");
    for (const patched of ["@remix-run+router+", "@remix-run+server-runtime+", "@remix-run+react+", "react-router-dom+"]) {
      expect(readdirSync("patches").some((name) => name.startsWith(patched))).toBe(true);
    }
  });

  it("have every patch applied: each file a patch changes carries its mark", () => {
    for (const patch of readdirSync("patches")) {
      const files = [...readFileSync(path.join("patches", patch), "utf8").matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((m) => m[1]);
      expect(files.length, patch).toBeGreaterThan(0);
      for (const file of files) expect(readFileSync(file, "utf8"), file).toMatch(/lagerfeuer patch/i);
    }
  });

});

describe("the forms' date and time fields", () => {
  it("reads every date field of a form as ISO when typed the German way: the form reader knows each one's name", () => {
    const found = new Set<string>();
    for (const file of sources("app").filter((f) => f.endsWith(".tsx"))) {
      for (const [element] of readFileSync(file, "utf8").matchAll(/<[a-zA-Z]\w*[^>]*?type="date"[^>]*>/g)) {
        const name = /name=\{?\s*(?:at\()?"(?:[\w.\[\]]*\.)?(\w+)"|fields\.(\w+)/.exec(element);
        expect(name, `${file}: ${element}`).not.toBeNull();
        found.add(name![1] ?? name![2]);
      }
    }
    expect([...found].sort()).toEqual([...DATE_FIELD_NAMES].sort());
  });

  it("runs the JavaScript of every page with a date or time field, which says an impossible date typed there as such", () => {
    // A route's page with its components, followed through their imports from ~/components.
    const withComponents = (file: string, seen = new Set<string>()): string => {
      if (seen.has(file)) return "";
      seen.add(file);
      const source = readFileSync(file, "utf8");
      const imported = [...source.matchAll(/from\s*"(~\/components\/|\.\.?\/)([\w\-/.]+)"/g)].map((m) =>
        m[1].startsWith("~") ? path.join("app/components", `${m[2]}.tsx`) : path.join(path.dirname(file), `${m[1]}${m[2]}.tsx`),
      );
      return source + imported.filter((f) => statSync(f, { throwIfNoEntry: false })).map((f) => withComponents(f, seen)).join("");
    };
    const routes = readdirSync("app/routes").filter((f) => f.endsWith(".tsx")).map((f) => path.join("app/routes", f));
    const withDates = routes.filter((file) => /type[=:] ?\{?"(date|time)"/.test(withComponents(file)));
    expect(withDates.length).toBeGreaterThanOrEqual(5);
    for (const file of withDates) expect(readFileSync(file, "utf8"), file).toMatch(/export const handle = \{[^}]*hydrate: true/);
  });

  it("reads every time field of a form as HH:MM when typed the German way: the form reader knows each one's name", () => {
    const found = new Set<string>();
    for (const file of sources("app").filter((f) => f.endsWith(".tsx"))) {
      for (const [element] of readFileSync(file, "utf8").matchAll(/<[a-zA-Z]\w*[^>]*?type[=:] ?"time"[^>]*>/g)) {
        const name = /name=\{?\s*"(?:[\w.\[\]]*\.)?(\w+)"|fields\.(\w+)/.exec(element);
        expect(name, `${file}: ${element}`).not.toBeNull();
        found.add(name![1] ?? name![2]);
      }
    }
    expect([...found].sort()).toEqual([...TIME_FIELD_NAMES].sort());
  });
});
