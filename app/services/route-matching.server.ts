// Route matching, remembered. React Router's `matchRoutes` (which Remix v2 calls three times for
// every page: to find the route, to render it, and in its static handler) flattened, ranked and
// compiled every route's path into a regular expression on each call: with our three dozen routes
// that was about 0.2 ms a call, the largest single cost of a small page. The routes never change
// while the server runs, so the answer for an address is the same every time: it is kept (the
// first MAX_ADDRESSES addresses asked about in all, the oldest dropped first) and handed out as
// a copy, so nothing a caller does to its matches reaches the next request. Answers are kept by
// the list's shape (ids, paths) and given the route objects of the list asked about, so a new
// list of the same routes (Remix built one for every render until patches/ made it keep them)
// costs one walk, not a match. Remix calls it through the module's export, which this replaces
// once at start (installRouteMatchCache, from entry.server.tsx). The static handler calls it from
// inside the package, where no export reaches: there a patch of the package (patches/, applied by
// `npm install`) keeps each list's ranked branches and each path's expression instead.
import { createRequire } from "node:module";
import type * as RemixRouter from "@remix-run/router";

type MatchRoutes = typeof RemixRouter.matchRoutes;

const MAX_ADDRESSES = 2_000;
const MAX_PATH = 256;

type Route = { id?: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Remembered = { id: string; params: Record<string, string | undefined>; pathname: string; pathnameBase: string }[] | null;

/**
 * A route list's shape (what matching depends on) and its routes by id. Remix builds a new list
 * of the same routes for every render, so answers are kept by shape and then handed out with the
 * route objects of the list asked about.
 */
const shapeIds = new Map<string, number>();

function indexRoutes(routes: Route[]) {
  const byId = new Map<string, Route>();
  let shape = "";
  let complete = true;
  const walk = (list: Route[]) => {
    for (const route of list) {
      if (route.id === undefined || byId.has(route.id)) complete = false;
      else byId.set(route.id, route);
      shape += `${JSON.stringify([route.id, route.path, route.index, route.caseSensitive])}(`;
      if (route.children) walk(route.children);
      shape += ")";
    }
  };
  walk(routes);
  if (!complete) return null;
  // The shape is a few kilobytes of text: answers are keyed by a number standing for it.
  let shapeId = shapeIds.get(shape);
  if (shapeId === undefined) shapeIds.set(shape, (shapeId = shapeIds.size));
  return { shapeId, byId };
}

/** A matchRoutes that remembers its answers; the same results as `original`. */
export function rememberingMatchRoutes(original: MatchRoutes): MatchRoutes {
  const indexes = new WeakMap<object, ReturnType<typeof indexRoutes>>();
  const answers = new Map<string, Remembered>();
  const representatives = new Map<number, Parameters<MatchRoutes>[0]>();
  return function matchRoutes(routes, location, basename = "/") {
    // Only a bare path (what Remix passes) is remembered; anything else is matched as always.
    const pathname = typeof location === "string" ? location : location.pathname;
    const bare = typeof location === "string" ? !/[?#]/.test(location) : Object.keys(location).every((key) => key === "pathname" || !location[key as keyof typeof location]);
    // Nor a long one: the app's own addresses are short, and a stranger's 16 KB paths should not
    // fill the memory of the remembered answers.
    if (!bare || pathname === undefined || pathname.length > MAX_PATH) return original(routes, location, basename);
    let index = indexes.get(routes);
    if (index === undefined) indexes.set(routes, (index = indexRoutes(routes as Route[])));
    if (index === null) return original(routes, location, basename); // routes without unique ids
    const key = `${index.shapeId}\u0000${basename}\u0000${pathname}`;
    let remembered = answers.get(key);
    if (remembered === undefined) {
      // A new address (a confirmation's id): matched against the first list of this shape, whose
      // ranked branches the patched package keeps, not against this render's new list.
      let representative = representatives.get(index.shapeId);
      if (representative === undefined) representatives.set(index.shapeId, (representative = routes));
      const matches = original(representative, location, basename);
      remembered = matches && matches.map((m) => ({ id: m.route.id!, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase }));
      answers.set(key, remembered);
      if (answers.size > MAX_ADDRESSES) answers.delete(answers.keys().next().value as string);
    }
    const { byId } = index;
    return (remembered && remembered.map((m) => ({ route: byId.get(m.id)!, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase }))) as ReturnType<MatchRoutes>;
  } as MatchRoutes;
}

let installed = false;

/** Puts the remembering matchRoutes into @remix-run/router's exports (once per process). */
export function installRouteMatchCache() {
  if (installed) return;
  installed = true;
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes };
  router.matchRoutes = rememberingMatchRoutes(router.matchRoutes);
}
