// HTTP as it travels: raw (compressed) bytes and headers, no automatic decoding.
import { request } from "node:http";
import { gunzipSync } from "node:zlib";

export type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; text: () => string };

/** `path` sends the request line's target as given (e.g. a full address), else it is url's path. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; path?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = options.path === undefined ? {} : { path: options.path };
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, ...target }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text: () => (res.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString("utf8"),
        });
      });
    });
    req.on("error", reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}
