import { describe, expect, it } from "vitest";
import { isCrossSiteWrite, securityHeaders } from "./security.server";

const own = "http://localhost:3000";
const req = (method: string, headers: Record<string, string>) => ({
  method,
  headers: new Headers(headers),
  ownOrigin: own,
});

describe("cross-site form posts", () => {
  it("refuses a POST from another site", () => {
    expect(isCrossSiteWrite(req("POST", { Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "Sec-Fetch-Site": "cross-site" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "Sec-Fetch-Site": "same-site", Origin: "http://sub.localhost:3000" }))).toBe(true);
    expect(isCrossSiteWrite(req("DELETE", { Origin: "null" }))).toBe(true);
  });

  it("lets our own forms and plain reads through", () => {
    expect(isCrossSiteWrite(req("POST", { Origin: own, "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossSiteWrite(req("POST", { Origin: own }))).toBe(false);
    expect(isCrossSiteWrite(req("POST", {}))).toBe(false);
    expect(isCrossSiteWrite(req("GET", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }))).toBe(false);
  });
});

describe("security headers", () => {
  it("allow only our own scripts and the nonce, and no framing", () => {
    const headers = securityHeaders({ nonce: "abc123", development: false });
    expect(headers["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc123'");
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["Content-Security-Policy"]).not.toContain("unsafe-inline");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("same-origin");
  });
});
