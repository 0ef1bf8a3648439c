// Which answers of a page with JavaScript may be drawn in place. A form on such a page (the
// enrolment, the login) is sent by Remix's browser code; when its action redirects, the browser
// code draws the next page itself and adds its address to the history. A page that ships no
// script (decision 0003: the confirmation, the start page) reloaded then is a document without
// React Router, and Back changed the address but not the screen (a parent's review: the
// confirmation stayed under the form's address). So a redirect to a page without scripts is
// followed by a document load, as without JavaScript; a redirect to a page with scripts (a list
// answering its own form, with the scroll position kept) is still drawn in place.
import { matchRoutes } from "@remix-run/react";

/** A route of the server build (`build.routes`), as far as this needs it. */
export type BuildRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: { handle?: unknown };
};

type RouteTree = Parameters<typeof matchRoutes>[0];

let known: { routes: Record<string, BuildRoute>; tree: RouteTree; publicPaths: Set<string> } | null = null;

function treeOf(routes: Record<string, BuildRoute>, parentId: string | undefined): RouteTree {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map(({ id, path, index, caseSensitive }) => {
      if (index) return { id, path, index: true, caseSensitive };
      const children = treeOf(routes, id);
      return { id, path, caseSensitive, children: children.length > 0 ? children : undefined };
    });
}

/** The build's routes and the public files' addresses (server.mjs, at start and after a rebuild in development). */
export function knowRoutes(routes: Record<string, BuildRoute>, publicPaths: string[] = []) {
  known = { routes, tree: treeOf(routes, undefined), publicPaths: new Set(publicPaths) };
}

/**
 * The pattern of the route that answers `pathname`, for the log line ("/freizeit/:id"): an address
 * of no route is "/*", whatever was typed (operations probe: a name typed as an address was logged
 * as typed). Null while the build's routes are not known (the log then masks ids and tokens).
 */
export function routePatternOf(pathname: string): string | null {
  if (!known) return null;
  if (/^\/build\//i.test(pathname)) return "/build/*";
  if (known.publicPaths.has(pathname)) return pathname;
  // A broken percent-encoding matches no route; React Router would say so in English on stderr.
  try {
    decodeURI(pathname);
  } catch {
    return "/*";
  }
  const matches = matchRoutes(known.tree, pathname) ?? [];
  const paths = matches.map((match) => match.route.path).filter((path): path is string => Boolean(path));
  return `/${paths.join("/")}`;
}

/** Whether the page at `pathname` ships scripts: a matched route has `handle = { hydrate: true }`. */
export function hasScripts(pathname: string): boolean {
  if (!known) return true;
  const { routes } = known;
  const matches = matchRoutes(known.tree, pathname);
  return (matches ?? []).some((match) => (routes[match.route.id ?? ""]?.module.handle as { hydrate?: boolean } | undefined)?.hydrate === true);
}

/**
 * A `?_data=` answer that redirects (Remix's 204 with `X-Remix-Redirect`) to a page of this site
 * without scripts: the browser code loads that page as a document. Routes not known yet (a test's
 * own handler): unchanged.
 */
export function loadDocumentUnlessScripts(headers: Headers) {
  const target = headers.get("X-Remix-Redirect");
  // Only a path of this site; a browser reads `/\host` as `//host`, so a backslash is left alone.
  if (target === null || !known || !target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return;
  let pathname: string;
  try {
    pathname = new URL(target, "http://localhost").pathname;
  } catch {
    return;
  }
  if (!hasScripts(pathname)) headers.set("X-Remix-Reload-Document", "true");
}
