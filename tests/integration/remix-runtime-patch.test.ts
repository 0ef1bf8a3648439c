// patches/ (applied by `npm install`):
// - @remix-run/server-runtime: Remix hands every loader and action a copy of the request without
//   its `index`/`_data` parameters. For an address without a query there is nothing to strip, and
//   the copy (a new URL and Request per loader of every page) is skipped: the loader gets the
//   request itself. With a query, the parameters are still stripped.
// - @remix-run/server-runtime and @remix-run/router: a Response is recognised as one without asking
//   for its `body`, a finished answer says it has a body (`hasBody`), and a `?_data=` answer gets
//   its header on itself unless its headers cannot change, so a loader's JSON made by
//   json.server.ts is read and sent without making its web stream.
// - react-router-dom: the static router of a render converts its route list into data routes
//   once per list, not on every render (@remix-run/react hands it the same list each time).
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FinishedResponse } from "~/services/finished-response.server";
import { json } from "~/services/json.server";

const { createRequestHandler } = createRequire(import.meta.url)("@remix-run/server-runtime") as typeof import("@remix-run/server-runtime");

type Loader = (args: { request: Request }) => Response | Promise<Response>;
type Rendered = { loaderData: Record<string, unknown> };

function handlerSeeing(seen: Request[]) {
  return handlerWith(({ request }) => {
    seen.push(request);
    return new Response(JSON.stringify({ ok: true }), { headers: { "Content-Type": "application/json" } });
  });
}

/** A Remix handler of one route with `loader`; a page is the JSON of the loader data it rendered. */
function handlerWith(loader: Loader) {
  const root = { id: "root", path: "", module: { default: () => null, loader } };
  const render = (_request: Request, status: number, _headers: Headers, context: { staticHandlerContext: Rendered }) =>
    new Response(JSON.stringify(context.staticHandlerContext.loaderData), { status, headers: { "Content-Type": "text/html" } });
  const build = {
    mode: "production",
    routes: { root },
    entry: { module: { default: render } },
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

describe("a loader's finished JSON in Remix with the patch", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is read for a page and for ?_data= without making its stream", async () => {
    const streamMade = vi.spyOn(FinishedResponse.prototype, "body", "get");
    const handler = handlerWith(() => json({ freizeit: "Zeltlager", plätze: 50 }));
    const page = await handler(new Request("http://localhost/"));
    expect(await page.json()).toEqual({ root: { freizeit: "Zeltlager", plätze: 50 } });
    const data = await handler(new Request("http://localhost/?_data=root"));
    expect(await data.json()).toEqual({ freizeit: "Zeltlager", plätze: 50 });
    expect(streamMade).not.toHaveBeenCalled();
  });

  it("still reads an empty JSON answer as null, and any other Response through its body", async () => {
    const empty = handlerWith(() => new Response(null, { headers: { "Content-Type": "application/json" } }));
    expect(await (await empty(new Request("http://localhost/"))).json()).toEqual({ root: null });
    const text = handlerWith(() => new Response("nur Text", { headers: { "Content-Type": "text/plain" } }));
    expect(await (await text(new Request("http://localhost/"))).json()).toEqual({ root: "nur Text" });
  });

  it("marks a ?_data= answer on the answer itself, or on a copy when its headers cannot change (a fetch's)", async () => {
    const made = json({ freizeit: "Zeltlager" });
    const own = await handlerWith(() => made)(new Request("http://localhost/?_data=root"));
    expect(own).toBe(made);
    expect(own.headers.get("X-Remix-Response")).toBe("yes");
    const fetched = await fetch("data:application/json,%7B%22freizeit%22%3A%22Waldlager%22%7D");
    expect(() => fetched.headers.set("X-Probe", "1")).toThrow(TypeError);
    const copy = await handlerWith(() => fetched)(new Request("http://localhost/?_data=root"));
    expect(copy).not.toBe(fetched);
    expect(copy.headers.get("X-Remix-Response")).toBe("yes");
    expect(await copy.json()).toEqual({ freizeit: "Waldlager" });
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
