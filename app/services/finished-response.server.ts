// Answers whose body is finished when they are made (a rendered page, a loader's JSON): their
// bytes are kept beside the Response, so the server writes them in one piece instead of reading
// them back through the Response's stream (remix-adapter.server.ts). The Response itself carries
// the same bytes for anyone else who reads it.
const finished = new WeakMap<Response, Buffer>();

/** Marks `response` as carrying exactly `bytes`. */
export function keepFinishedBody(response: Response, bytes: Buffer) {
  finished.set(response, bytes);
}

/** A Response with a finished body. */
export function finishedResponse(bytes: Buffer, init: ResponseInit): Response {
  const response = new Response(bytes as Buffer<ArrayBuffer>, init);
  keepFinishedBody(response, bytes);
  return response;
}

/** The finished body of `response`, if it has one. */
export function finishedBodyOf(response: Response): Buffer | undefined {
  return finished.get(response);
}
