import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, finishedBody } from "./compress.server";

describe("finished answers", () => {
  const page = Buffer.from(`<!DOCTYPE html><main>${"<p>Zeltlager am See</p>".repeat(200)}</main>`);

  it("are gzipped when the client takes gzip, with the length of what is sent", () => {
    const headers = new Headers({ Vary: "Cookie" });
    const body = finishedBody(page, "br, gzip", headers);
    expect(headers.get("Content-Encoding")).toBe("gzip");
    expect(headers.get("Content-Length")).toBe(String(body.length));
    expect(headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    expect(gunzipSync(body).equals(page)).toBe(true);
    expect(body.length).toBeLessThan(page.length / 10);
  });

  it("are sent as they are to a client that does not take gzip, and when small", () => {
    for (const [bytes, accepted] of [
      [page, null],
      [page, "br"],
      [page, "gzip;q=0, identity"],
      [Buffer.from("<p>kurz</p>"), "gzip"],
    ] as const) {
      const headers = new Headers();
      expect(finishedBody(bytes, accepted, headers)).toBe(bytes);
      expect(headers.get("Content-Encoding")).toBeNull();
      expect(headers.get("Vary")).toBe("Accept-Encoding");
    }
  });

  it("read Accept-Encoding as browsers write it", () => {
    expect(["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "GZIP", "deflate,gzip"].every(acceptsGzip)).toBe(true);
    expect(["", "br", "identity", "gzip;q=0", "gzip; q=0.0", "x-gzip-not"].some(acceptsGzip)).toBe(false);
  });
});
