// Answers whose body is finished when they are made (a rendered page, a loader's JSON): their
// bytes are kept beside the Response, so the server writes them in one piece instead of reading
// them back through a stream (remix-adapter.server.ts).
//
// Undici makes a web stream of every body a Response is given, even of finished bytes: for a page
// with its two loaders' answers that was about a twentieth of the CPU of the request. A
// FinishedResponse is made without a body and makes the stream only when someone asks for `body`;
// reading it (`text()`, `json()`, `arrayBuffer()`, …) gives the same bytes, once, as any Response.
// Remix's router asked every loader's answer for `body`, to tell a Response from data and to see
// whether its JSON is empty; patched (patches/), it asks `instanceof Response` and `hasBody`
// instead, so no stream is made for a page, which saved about a tenth of a confirmation page's CPU
// (docs/decisions/0017-enrolment-burst.md, fifth round).
export class FinishedResponse extends Response {
  readonly #bytes: Buffer<ArrayBuffer>;
  /** The bytes as text when the maker has it (a loader's JSON): read without decoding them. */
  readonly #text: string | undefined;
  /** A Response with the bytes as its body, made once someone asks for the stream. */
  #streamed: Response | undefined;
  #read = false;

  constructor(bytes: Buffer, init: ResponseInit = {}, text?: string) {
    super(null, init);
    this.#bytes = bytes as Buffer<ArrayBuffer>;
    this.#text = text;
  }

  /** The finished bytes of `response` if it is a FinishedResponse. */
  static bytesOf(response: Response): Buffer | undefined {
    return #bytes in response ? response.#bytes : undefined;
  }

  /** Always true: the bytes, even none, are the body (a body of `null` is another Response). */
  get hasBody(): boolean {
    return true;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    this.#streamed ??= new Response(this.#bytes);
    return this.#streamed.body;
  }

  override get bodyUsed(): boolean {
    return this.#read || (this.#streamed?.bodyUsed ?? false);
  }

  /** The bytes, marked as read; a body read twice is refused as by any Response. */
  #take(): Buffer<ArrayBuffer> {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.#read = true;
    return this.#bytes;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#streamed) return this.#streamed.arrayBuffer();
    return attempt(() => {
      const bytes = this.#take();
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    });
  }

  override text(): Promise<string> {
    if (this.#streamed) return this.#streamed.text();
    return attempt(() => {
      const bytes = this.#take();
      return this.#text ?? withoutBom(bytes.toString("utf8"));
    });
  }

  override json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text));
  }

  override blob(): Promise<Blob> {
    if (this.#streamed) return this.#streamed.blob();
    const type = this.headers.get("Content-Type") ?? "";
    return attempt(() => new Blob([this.#take()], { type }));
  }

  override formData(): Promise<FormData> {
    if (this.#streamed) return this.#streamed.formData();
    return attempt(() => new Response(this.#take(), { headers: this.headers }).formData());
  }

  override clone(): FinishedResponse {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new FinishedResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers }, this.#text);
  }
}

/** As Response's text(): a leading byte order mark is not part of the text. */
function withoutBom(text: string) {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A promise of `make()`'s result, or of its error (a Response's reading methods never throw). */
function attempt<T>(make: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(make());
  } catch (error) {
    return Promise.reject(error);
  }
}
