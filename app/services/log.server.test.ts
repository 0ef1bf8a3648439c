import { describe, expect, it } from "vitest";
import { routePattern } from "./log.server";

describe("routePattern", () => {
  it.each([
    ["/", "/"],
    ["/freizeit/12", "/freizeit/:id"],
    ["/freizeit/participants/participant-details/4711?filter=offen", "/freizeit/participants/participant-details/:id"],
    ["/resetPassword/Zx8y-3kLmN0pQrStUvWxYz0123456789abcdEFGH_ij", "/resetPassword/:token"],
    ["/konto-bestaetigen/abc123def456ghi789jkl", "/konto-bestaetigen/:token"],
    ["/login?redirectTo=%2Faccount&token=geheim", "/login"],
    ["/uploads/attachments/AbCdEf1234567890ghIjKl.pdf", "/uploads/attachments/:token"],
    ["/freizeit/create", "/freizeit/create"],
    // A mistyped address with an e-mail address in it (found by a probe): never logged as typed.
    ["/anna.schmidt@example.org", "/:email"],
    ["/kontakt/anna%40example.org/x", "/kontakt/:email/x"],
  ])("%s → %s", (url, pattern) => {
    expect(routePattern(url)).toBe(pattern);
  });
});

describe("routePattern with the build's routes known", () => {
  it("logs the route's pattern, never an address of no route as typed", async () => {
    const { knowRoutes } = await import("./document-loads.server");
    knowRoutes({
      root: { id: "root", path: "", module: {} },
      "routes/freizeit.$id": { id: "routes/freizeit.$id", parentId: "root", path: "freizeit/:id", module: {} },
      "routes/$": { id: "routes/$", parentId: "root", path: "*", module: {} },
    });
    expect(routePattern("/freizeit/12?x=1")).toBe("/freizeit/:id");
    expect(routePattern("/Anna-Schmidt")).toBe("/*");
  });
});
