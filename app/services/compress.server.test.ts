import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzippedIfTaken } from "./compress.server";

describe("finished answers", () => {
  const page = Buffer.from(`<!DOCTYPE html><main>${"<p>Zeltlager am See</p>".repeat(200)}</main>`);

  it("are gzipped when the client takes gzip", () => {
    const body = gzippedIfTaken(page, "br, gzip")!;
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
      expect(gzippedIfTaken(bytes, accepted)).toBeNull();
    }
  });

  it("read Accept-Encoding as browsers write it", () => {
    expect(["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "GZIP", "deflate,gzip"].every(acceptsGzip)).toBe(true);
    expect(["", "br", "identity", "gzip;q=0", "gzip; q=0.0", "x-gzip-not"].some(acceptsGzip)).toBe(false);
  });
});
