import { json as remixJson } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { json } from "./json.server";

const data = { when: new Date(Date.UTC(2026, 6, 1)), name: "Jürgen", gone: undefined, list: [1, null, "ä€𝄞"] };

describe("json()", () => {
  it("gives the renderer what JSON gives the browser", async () => {
    expect(await json(data).json()).toEqual(JSON.parse(JSON.stringify(data)));
    expect(await json(data).json()).toEqual(await remixJson(data).json());
  });

  it("sends the same bytes, status and headers as Remix's json()", async () => {
    const ours = json(data, { status: 400, headers: { "Set-Cookie": "a=b", "X-Test": "1" } });
    const theirs = remixJson(data, { status: 400, headers: { "Set-Cookie": "a=b", "X-Test": "1" } });
    expect(ours.status).toBe(400);
    expect([...ours.headers]).toEqual([...theirs.headers]);
    expect(Buffer.from(await ours.arrayBuffer())).toEqual(Buffer.from(await theirs.arrayBuffer()));
    expect(json(data, 201).status).toBe(201);
    expect(await json(data).text()).toBe(JSON.stringify(data));
  });

  it("keeps a content type it is given, and answers undefined with no body", async () => {
    expect(json({}, { headers: { "Content-Type": "application/vnd.test+json" } }).headers.get("Content-Type")).toBe("application/vnd.test+json");
    const empty = json(undefined);
    expect(empty.body).toBeNull();
  });
});
