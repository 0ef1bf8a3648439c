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
  ])("%s → %s", (url, pattern) => {
    expect(routePattern(url)).toBe(pattern);
  });
});
