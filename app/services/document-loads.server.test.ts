import { describe, expect, it, vi } from "vitest";
import { type BuildRoute, hasScripts, knowRoutes, loadDocumentUnlessScripts, routePatternOf } from "./document-loads.server";

const scripts = { handle: { hydrate: true } };
const none = {};
const routes: Record<string, BuildRoute> = {
  root: { id: "root", path: "", module: none },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true, module: none },
  "routes/enroll.$eventId": { id: "routes/enroll.$eventId", parentId: "root", path: "enroll/:eventId", module: scripts },
  "routes/anmeldung.$enrolmentId": { id: "routes/anmeldung.$enrolmentId", parentId: "root", path: "anmeldung/:enrolmentId", module: none },
  "routes/freizeit": { id: "routes/freizeit", parentId: "root", path: "freizeit", module: none },
  "routes/freizeit.participants.$id": { id: "routes/freizeit.participants.$id", parentId: "routes/freizeit", path: "participants/:id", module: scripts },
};

function redirectTo(target: string) {
  const headers = new Headers({ "X-Remix-Redirect": target });
  loadDocumentUnlessScripts(headers);
  return headers.get("X-Remix-Reload-Document");
}

describe("redirects of Remix's browser code", () => {
  it("change nothing while the build's routes are not known", () => {
    expect(redirectTo("/anmeldung/5")).toBeNull();
  });

  it("know which pages ship scripts, a nested route's handle included", () => {
    knowRoutes(routes);
    expect(hasScripts("/")).toBe(false);
    expect(hasScripts("/anmeldung/5")).toBe(false);
    expect(hasScripts("/enroll/1")).toBe(true);
    expect(hasScripts("/freizeit/participants/3")).toBe(true);
    expect(hasScripts("/gibt-es-nicht")).toBe(false);
  });

  it("load a page without scripts as a document, and leave a page with scripts to be drawn in place", () => {
    knowRoutes(routes);
    expect(redirectTo("/anmeldung/5")).toBe("true");
    expect(redirectTo("/?gesendet")).toBe("true");
    expect(redirectTo("/enroll/1")).toBeNull();
    expect(redirectTo("/freizeit/participants/3?filter=warteliste#liste")).toBeNull();
  });

  it("leave other sites' addresses and answers without a redirect alone", () => {
    knowRoutes(routes);
    expect(redirectTo("//example.org/anmeldung/5")).toBeNull();
    expect(redirectTo("https://example.org/")).toBeNull();
    expect(redirectTo("/\\example.org/")).toBeNull();
    expect(redirectTo("/\\[")).toBeNull();
    const headers = new Headers();
    loadDocumentUnlessScripts(headers);
    expect([...headers]).toEqual([]);
  });
});

describe("the route pattern of a request's log line", () => {
  it("is the matched route's own pattern, nested routes joined; an address of no route is '/*', a public file itself", () => {
    knowRoutes({ ...routes, "routes/$": { id: "routes/$", parentId: "root", path: "*", module: none } }, ["/favicon.ico"]);
    expect(routePatternOf("/")).toBe("/");
    expect(routePatternOf("/enroll/12")).toBe("/enroll/:eventId");
    expect(routePatternOf("/Freizeit/participants/3/")).toBe("/freizeit/participants/:id");
    // Operations probe: a name typed as an address was logged as typed.
    expect(routePatternOf("/Anna-Schmidt")).toBe("/*");
    expect(routePatternOf("/Emma.Schulz")).toBe("/*");
    expect(routePatternOf("/enroll/12/Anna")).toBe("/*");
    // A broken encoding: no route, and nothing said on stderr (every log line is JSON).
    const warn = vi.spyOn(console, "warn");
    expect(routePatternOf("/enroll/%E0%A4%A")).toBe("/*");
    expect(warn).not.toHaveBeenCalled();
    expect(routePatternOf("/favicon.ico")).toBe("/favicon.ico");
    expect(routePatternOf("/build/entry.client-AB12CD.js")).toBe("/build/*");
  });
});
