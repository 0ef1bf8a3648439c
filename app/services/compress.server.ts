// Compression of finished answers. The express middleware (`compression`) compresses through a
// zlib stream on the thread pool: for a small page that costs about 0.5 ms of the main thread's
// time in stream set-up and callbacks, more than rendering half the page, while compressing the
// finished bytes at once takes 0.03 ms (docs/decisions/0017-enrolment-burst.md). Pages are
// finished before they are sent (entry.server.tsx), so a signed-in person's page is compressed
// here; anonymous pages go to the page cache uncompressed, which keeps its own gzip copy.
import { gzipSync } from "node:zlib";

/** Below this an answer is sent as it is (as `compression` does by default). */
const THRESHOLD_BYTES = 1024;

/** Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | null | undefined) {
  return /(?:^|,)\s*gzip\s*(?:,|$|;(?!\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$)))/i.test(String(acceptEncoding ?? ""));
}

/** The body to send for `bytes`, gzipped when the client takes it and it is worth it; sets the headers. */
export function finishedBody(bytes: Buffer<ArrayBuffer>, acceptEncoding: string | null, headers: Headers): Buffer<ArrayBuffer> {
  headers.append("Vary", "Accept-Encoding");
  if (bytes.length < THRESHOLD_BYTES || !acceptsGzip(acceptEncoding)) return bytes;
  const zipped = gzipSync(bytes) as Buffer<ArrayBuffer>;
  headers.set("Content-Encoding", "gzip");
  headers.set("Content-Length", String(zipped.length));
  return zipped;
}
