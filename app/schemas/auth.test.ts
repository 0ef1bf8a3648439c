import { describe, expect, it } from "vitest";
import { safeRedirect } from "./auth";

/** Where a browser would really go when it gets `location` as a redirect from our site. */
function whereTheBrowserGoes(location: string) {
  return new URL(location, "https://lager.example.org/login").origin;
}

describe("safeRedirect", () => {
  it.each([
    ["/account", "/account"],
    ["/account?tab=teilnehmer", "/account?tab=teilnehmer"],
    ["/events/12#anmeldung", "/events/12#anmeldung"],
    ["/a/../account", "/account"],
    ["/./account", "/account"],
    ["/veranstaltung/sommerlager%20see", "/veranstaltung/sommerlager%20see"],
    ["/suche?q=a%2Fb", "/suche?q=a%2Fb"],
    ["/Zeltlager-ä", "/Zeltlager-%C3%A4"],
    ["/..", "/"],
  ])("keeps the path %j of this site (as %j)", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    // Not a path at all
    null,
    undefined,
    "",
    "account",
    "./account",
    "../account",
    "?x=1",
    "#x",
    // Other sites and schemes
    "https://evil.example",
    "http://evil.example/account",
    "http:/evil.example",
    "http:evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "mailto:a@evil.example",
    // Protocol-relative, also after normalising the path
    "//evil.example",
    "///evil.example",
    "/.//evil.example",
    "/././/evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/%2e//evil.example",
    "/.%2e//evil.example",
    "/%2e%2e/%2e%2e//evil.example",
    // Backslashes, raw and encoded
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "/%5cevil.example",
    "/%5Cevil.example",
    "/%5c%5cevil.example",
    "/a/..%5c..%5c/evil.example",
    // Encoded slashes, also encoded twice
    "/%2f%2fevil.example",
    "/%2F%2Fevil.example",
    "/%2fevil.example",
    "/a%2f..%2f..%2f%2fevil.example",
    "/%252f%252fevil.example",
    // Tabs, newlines, spaces and other control characters (the URL parser drops some of them)
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\t\t/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/ /evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/\u0000/evil.example",
    "/account\u007f",
    // Absurdly long
    `/${"a".repeat(3000)}`,
  ])("sends %j to / instead", (input) => {
    expect(safeRedirect(input as string | null | undefined)).toBe("/");
  });

  it("uses the given fallback", () => {
    expect(safeRedirect("//evil.example", "/account")).toBe("/account");
  });

  it("never returns a location that leaves the site", () => {
    const tricky = ["/.//evil.example", "/a/..//evil.example", "/%2e%2e//evil.example", "/%2f%2fevil.example", "/\\evil.example"];
    for (const input of tricky) expect(whereTheBrowserGoes(safeRedirect(input))).toBe("https://lager.example.org");
  });

  it("accepts file values and other non-strings only as /", () => {
    expect(safeRedirect(new File(["/account"], "x.txt"))).toBe("/");
  });
});
