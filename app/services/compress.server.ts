// Compression of finished answers. The express middleware (`compression`) compresses through a
// zlib stream on the thread pool: for a small page that costs about 0.5 ms of the main thread's
// time in stream set-up and callbacks, more than rendering half the page, while compressing the
// finished bytes at once takes 0.03 ms (docs/decisions/0017-enrolment-burst.md). Pages and data
// are finished before they are sent, so remix-adapter.server.ts compresses them here; the page
// cache keeps them uncompressed, with its own gzip copy.
import { gzipSync } from "node:zlib";

/** Below this an answer is sent as it is (as `compression` does by default). */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | null | undefined) {
  return /(?:^|,)\s*gzip\s*(?:,|$|;(?!\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$)))/i.test(String(acceptEncoding ?? ""));
}

/** `bytes` gzipped when the client takes gzip and it is worth it, otherwise null (sent as they are). */
export function gzippedIfTaken(bytes: Buffer, acceptEncoding: string | null | undefined): Buffer | null {
  if (bytes.length < COMPRESS_THRESHOLD_BYTES || !acceptsGzip(acceptEncoding)) return null;
  return gzipSync(bytes);
}
