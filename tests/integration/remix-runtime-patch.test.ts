// patches/ (applied by `npm install`):
// - @remix-run/server-runtime: Remix hands every loader and action a copy of the request without
//   its `index`/`_data` parameters. For an address without a query there is nothing to strip, and
//   the copy (a new URL and Request per loader of every page) is skipped: the loader gets the
//   request itself. With a query, the parameters are still stripped.
// - react-router-dom: the static router of a render converts its route list into data routes
//   once per list, not on every render (@remix-run/react hands it the same list each time).
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const { createRequestHandler } = createRequire(import.meta.url)("@remix-run/server-runtime") as typeof import("@remix-run/server-runtime");

function handlerSeeing(seen: Request[]) {
  const root = {
    id: "root",
    path: "",
    module: {
      default: () => null,
      loader: ({ request }: { request: Request }) => {
        seen.push(request);
        return new Response(JSON.stringify({ ok: true }), { headers: { "Content-Type": "application/json" } });
      },
    },
  };
  const build = {
    mode: "production",
    routes: { root },
    entry: { module: { default: () => new Response("page", { headers: { "Content-Type": "text/html" } }) } },
    assets: { routes: { root: { id: "root", module: "/root.js", hasLoader: true } }, entry: { module: "/entry.js", imports: [] }, url: "/manifest.js", version: "1" },
    future: {},
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    isSpaMode: false,
  };
  return createRequestHandler(build as never, "production");
}

describe("Remix's server runtime with the patch", () => {
  it("gives a loader the request itself when the address has no query", async () => {
    const seen: Request[] = [];
    const request = new Request("http://localhost/");
    expect((await handlerSeeing(seen)(request)).status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(request);
  });

  it("still strips index and _data from an address that has them, and keeps the rest", async () => {
    const seen: Request[] = [];
    const answer = await handlerSeeing(seen)(new Request("http://localhost/?_data=root&index&seite=2"));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0].url).search).toBe("?seite=2");
  });
});

describe("React Router's static router with the patch", () => {
  it("converts a route list once and gives each render of it the same data routes and matches", () => {
    const { createStaticRouter } = createRequire(import.meta.url)("react-router-dom/server") as typeof import("react-router-dom/server");
    const routes = [{ id: "root", path: "/", children: [{ id: "event", path: "freizeit/:id" }] }];
    const context = (id: string) =>
      ({
        basename: "/",
        location: { pathname: `/freizeit/${id}`, search: "", hash: "", state: null, key: "default" },
        matches: [
          { route: routes[0], params: { id }, pathname: "/", pathnameBase: "/" },
          { route: routes[0].children[0], params: { id }, pathname: `/freizeit/${id}`, pathnameBase: `/freizeit/${id}` },
        ],
        loaderData: {},
        actionData: null,
        errors: null,
        statusCode: 200,
        loaderHeaders: {},
        actionHeaders: {},
        activeDeferreds: null,
      }) as never;
    const first = createStaticRouter(routes, context("1"));
    const second = createStaticRouter(routes, context("2"));
    expect(second.routes).toBe(first.routes);
    expect(second.state.matches.map((m) => [m.route.id, m.params.id])).toEqual([["root", "2"], ["event", "2"]]);
    expect(second.state.matches[1].route).toBe(first.routes[0].children![0]);
    const other = createStaticRouter(structuredClone(routes), context("3"));
    expect(other.routes).not.toBe(first.routes);
    expect(other.routes).toEqual(first.routes);
  });
});
