import { matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { rememberingMatchRoutes } from "./route-matching.server";

// The shape of the app's routes: the root, an index, static, dynamic, optional and splat segments.
const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/login", path: "login" },
      { id: "routes/freizeit.$id", path: "freizeit/:id" },
      { id: "routes/freizeit.create", path: "freizeit/create" },
      { id: "routes/freizeit.participants.$id", path: "freizeit/participants/:id" },
      { id: "routes/notfall", path: "freizeit/participants/:id/notfall/:groupId?" },
      { id: "routes/legal", path: "legal/:document" },
      { id: "routes/$", path: "*" },
    ],
  },
];

const addresses = ["/", "/login", "/login/", "/freizeit/7", "/freizeit/create", "/freizeit/participants/12", "/freizeit/participants/12/notfall", "/freizeit/participants/12/notfall/3", "/legal/agb.pdf", "/gibt/es/nicht", "/freizeit/%C3%A4", "/LOGIN"];

describe("the remembering matchRoutes", () => {
  it("answers exactly as React Router does, the first time and again", () => {
    const remembering = rememberingMatchRoutes(matchRoutes);
    for (const address of addresses) {
      const expected = matchRoutes(routes, address);
      expect(remembering(routes, address)).toEqual(expected);
      expect(remembering(routes, address)).toEqual(expected);
      expect(remembering(routes, { pathname: address })).toEqual(matchRoutes(routes, { pathname: address }));
      expect(remembering(routes, address, "/app")).toEqual(matchRoutes(routes, address, "/app"));
    }
  });

  it("hands out copies: a caller changing its matches changes nobody else's", () => {
    const remembering = rememberingMatchRoutes(matchRoutes);
    const first = remembering(routes, "/freizeit/7")!;
    (first[1].params as Record<string, string>).id = "8";
    first.pop();
    const second = remembering(routes, "/freizeit/7")!;
    expect(second).toHaveLength(2);
    expect(second[1].params.id).toBe("7");
  });

  it("gives the route objects of the list asked about when Remix builds the same routes anew", () => {
    const remembering = rememberingMatchRoutes(matchRoutes);
    const copy = structuredClone(routes);
    expect(remembering(routes, "/freizeit/7")).toEqual(matchRoutes(routes, "/freizeit/7"));
    const again = remembering(copy, "/freizeit/7")!;
    expect(again.map((m) => m.route)).toEqual([copy[0], copy[0].children[2]]);
    expect(again[1].route).toBe(copy[0].children[2]);
    // Another shape (a path changed) is matched anew.
    const changed = structuredClone(routes);
    changed[0].children[2].path = "veranstaltung/:id";
    expect(remembering(changed, "/freizeit/7")).toEqual(matchRoutes(changed, "/freizeit/7"));
  });

  it("matches an address with a query or hash, or a very long one, as always, without remembering it", () => {
    let calls = 0;
    const remembering = rememberingMatchRoutes((...args) => {
      calls++;
      return matchRoutes(...args);
    });
    expect(remembering(routes, "/freizeit/7?x=1")).toEqual(matchRoutes(routes, "/freizeit/7?x=1"));
    remembering(routes, "/freizeit/7?x=1");
    expect(calls).toBe(2);
    remembering(routes, "/freizeit/7");
    remembering(routes, "/freizeit/7");
    expect(calls).toBe(3);
    // A very long address is matched each time, never kept.
    const long = `/gibt/${"x".repeat(300)}`;
    expect(remembering(routes, long)).toEqual(matchRoutes(routes, long));
    remembering(routes, long);
    expect(calls).toBe(5);
  });
});

// patches/@remix-run+router+*.patch (applied by `npm install`): React Router's own matchRoutes,
// which Remix's static handler calls from inside the package where no export reaches, keeps each
// route list's ranked branches and each path's regular expression instead of building them again.
describe("React Router's matchRoutes with the patch", () => {
  it("is the patched code", async () => {
    const { readFileSync } = await import("node:fs");
    const { createRequire } = await import("node:module");
    const file = createRequire(import.meta.url).resolve("@remix-run/router");
    expect(readFileSync(file, "utf8")).toContain("lagerfeuer patch: a route list's ranked branches are computed once");
  });

  it("matches every address right, asked again and again with the same list and with new ones", async () => {
    // The CommonJS build, which the server loads (vitest itself might pick the ES module build).
    const { createRequire } = await import("node:module");
    const { matchRoutes, matchPath } = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");
    const ids = (address: string, list = routes) => matchRoutes(list, address)?.map((m) => [m.route.id, m.params]) ?? null;
    const expected = {
      "/": [["root", {}], ["routes/_index", {}]],
      "/freizeit/7": [["root", { id: "7" }], ["routes/freizeit.$id", { id: "7" }]],
      "/freizeit/create": [["root", {}], ["routes/freizeit.create", {}]],
      "/freizeit/participants/12/notfall/3": [["root", { id: "12", groupId: "3" }], ["routes/notfall", { id: "12", groupId: "3" }]],
      "/LOGIN": [["root", {}], ["routes/login", {}]],
      "/gibt/es/nicht": [["root", { "*": "gibt/es/nicht" }], ["routes/$", { "*": "gibt/es/nicht" }]],
    };
    for (let round = 0; round < 3; round++) {
      const list = round === 2 ? structuredClone(routes) : routes;
      for (const [address, matches] of Object.entries(expected)) expect(ids(address, list)).toEqual(matches);
    }
    // A case-sensitive route and a partial match (end: false) are compiled as what they are.
    const strict = [{ id: "strict", path: "/Login", caseSensitive: true }];
    expect(matchRoutes(strict, "/Login")?.[0].route.id).toBe("strict");
    expect(matchRoutes(strict, "/login")).toBeNull();
    expect(matchPath({ path: "/freizeit", end: false }, "/freizeit/7")?.pathnameBase).toBe("/freizeit");
    expect(matchPath({ path: "/freizeit", end: true }, "/freizeit/7")).toBeNull();
  });
});

describe("React Router's matchRoutes with the patch, against the unpatched one", () => {
  it("tries only the branches an address's first segment can match, with the same answers", async () => {
    const { createRequire } = await import("node:module");
    const patched = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");
    // The package's ES module build, which the patch leaves alone (the server loads CommonJS).
    const unpatched = ((await import("@remix-run/router/dist/router.js" as string)) as typeof import("@remix-run/router")).matchRoutes;
    expect(unpatched).not.toBe(patched.matchRoutes);
    const list = [
      {
        id: "root",
        path: "",
        children: [
          ...routes[0].children,
          { id: "routes/Strikt", path: "Strikt", caseSensitive: true },
          { id: "routes/anmeldung.$id", path: "anmeldung/:id" },
          { id: "routes/$lang.hilfe", path: ":lang?/hilfe" },
          { id: "routes/$slug", path: ":slug" },
        ],
      },
    ];
    const more = [...addresses, "/anmeldung/5457", "/ANMELDUNG/5457/", "/Strikt", "/strikt", "/de/hilfe", "/hilfe", "/irgendwas", "/irgendwas/mehr", "//freizeit/7", "/%C3%A4rger", ""];
    for (let round = 0; round < 2; round++) {
      for (const address of more) {
        expect(patched.matchRoutes(list, address), address).toEqual(unpatched(list, address));
      }
    }
  });
});
