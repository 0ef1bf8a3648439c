import { describe, expect, it } from "vitest";
import {
  errorPage,
  hasSessionCookie,
  isCrossSiteWrite,
  isMalformedHost,
  isMalformedPath,
  newNonce,
  originOf,
  securityHeaders,
} from "./security.server";

const own = "http://localhost:3000";
const req = (method: string, headers: Record<string, string>, ownOrigins = [own]) => ({
  method,
  headers: new Headers(headers),
  ownOrigins,
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

  it("accepts the public origin of APP_URL behind a proxy, and only that", () => {
    const origins = ["http://127.0.0.1:3000", originOf("https://Lager.Example.org/")];
    expect(origins[1]).toBe("https://lager.example.org");
    expect(isCrossSiteWrite(req("POST", { Origin: "https://lager.example.org" }, origins))).toBe(false);
    expect(isCrossSiteWrite(req("POST", { Origin: "http://lager.example.org" }, origins))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { Origin: "https://lager.example.org:8443" }, origins))).toBe(true);
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

  it("deny the browser features the app does not use", () => {
    const policy = securityHeaders({ nonce: "n", development: false })["Permissions-Policy"];
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"]) expect(policy).toContain(`${feature}=()`);
  });

  it("ask for HTTPS for a year only when the request came over HTTPS", () => {
    expect(securityHeaders({ nonce: "n", development: false, https: true })["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(securityHeaders({ nonce: "n", development: false, https: false })["Strict-Transport-Security"]).toBeUndefined();
  });
});

describe("requests the app does not take", () => {
  it("recognises a path that cannot be decoded", () => {
    expect(isMalformedPath("/%E0%A4%A")).toBe(true);
    expect(isMalformedPath("/freizeit/%")).toBe(true);
    expect(isMalformedPath("/freizeit/12?x=%")).toBe(false);
    expect(isMalformedPath("/gr%C3%BC%C3%9Fe")).toBe(false);
  });

  it("recognises a Host header no URL can have", () => {
    expect(isMalformedHost("[")).toBe(true);
    expect(isMalformedHost("a b")).toBe(true);
    expect(isMalformedHost("lager.example.org")).toBe(false);
    expect(isMalformedHost("127.0.0.1:3000")).toBe(false);
    expect(isMalformedHost("[::1]:3000")).toBe(false);
    expect(isMalformedHost(undefined)).toBe(false);
    // Attack probe: a port 0, letters a host name cannot have unencoded, an escape.
    for (const host of ["localhost:0", "localhost:65536", "bücher.de", "lager%2eexample.org", "localhost:", ":3000", "[::1"]) {
      expect([host, isMalformedHost(host)]).toEqual([host, true]);
    }
    for (const host of ["localhost:65535", "xn--bcher-kva.de", "LAGER.Example.org", "[2001:db8::1]:443", "10.0.0.5"]) {
      expect([host, isMalformedHost(host)]).toEqual([host, false]);
    }
  });

  it("answers with a small German page that never echoes the request", () => {
    const page = errorPage(400);
    expect(page.status).toBe(400);
    expect(page.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain('<html lang="de">');
    expect(page.body).toContain("<h1>Ungültige Anfrage</h1>");
    expect(page.body).toContain('<a href="/" class="button">Zur Startseite</a>');
    expect(errorPage(405).body).toContain("Anfrage nicht möglich");
    expect(errorPage(500).body).toContain("Da hat etwas nicht geklappt");
    expect(errorPage(418).body).toContain("Das hat nicht geklappt");
    expect(errorPage(500).body.length).toBeLessThan(1024);
  });
});

describe("personal answers", () => {
  it("are recognised by the session cookie", () => {
    expect(hasSessionCookie("lf_session=abc")).toBe(true);
    expect(hasSessionCookie("lf_flash=x; lf_session=abc")).toBe(true);
    expect(hasSessionCookie("x_lf_session=abc")).toBe(false);
    expect(hasSessionCookie(null)).toBe(false);
  });
});

describe("newNonce", () => {
  it("gives 16 random bytes in base64, never the same twice, also past a refill of its pool", () => {
    const nonces = Array.from({ length: 1_000 }, () => newNonce());
    expect(new Set(nonces).size).toBe(1_000);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });

  it("goes into the policy as given", () => {
    const nonce = newNonce();
    expect(securityHeaders({ nonce, development: false })["Content-Security-Policy"]).toContain(`script-src 'self' 'nonce-${nonce}';`);
    expect(securityHeaders({ nonce, development: true })["Content-Security-Policy"]).toContain("connect-src 'self' ws:");
  });
});
