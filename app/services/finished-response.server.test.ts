import { describe, expect, it } from "vitest";
import { FinishedResponse } from "./finished-response.server";
import { json } from "./json.server";

const page = "<!DOCTYPE html><p>Zeltlager am See – Anmeldebestätigung</p>";
const made = () => new FinishedResponse(Buffer.from(page), { status: 201, headers: { "Content-Type": "text/html; charset=utf-8" } });

describe("a finished Response", () => {
  it("reads as any Response with the same bytes: text, arrayBuffer, blob, the stream", async () => {
    const plain = new Response(page, { status: 201 });
    expect(made().status).toBe(plain.status);
    expect(made()).toBeInstanceOf(Response);
    expect(await made().text()).toBe(page);
    expect(Buffer.from(await made().arrayBuffer())).toEqual(Buffer.from(await plain.arrayBuffer()));
    const blob = await made().blob();
    expect(blob.type).toBe("text/html; charset=utf-8");
    expect(await blob.text()).toBe(page);
    expect(await new Response(made().body).text()).toBe(page);
    expect(FinishedResponse.bytesOf(made())?.toString("utf8")).toBe(page);
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page)]);
    expect(await new FinishedResponse(marked, {}).text()).toBe(await new Response(marked).text());
  });

  it("is read once, as any Response: a second reading is refused", async () => {
    const response = made();
    expect(response.bodyUsed).toBe(false);
    await response.text();
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);

    const streamed = made();
    expect(await streamed.body!.getReader().read()).toMatchObject({ done: false });
    await expect(streamed.text()).rejects.toThrow(TypeError);
  });

  it("clones with its status, headers and bytes; reads a form", async () => {
    const copy = made().clone();
    expect(copy).toBeInstanceOf(FinishedResponse);
    expect(copy.status).toBe(201);
    expect(copy.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await copy.text()).toBe(page);
    const form = await new FinishedResponse(Buffer.from("vorname=J%C3%BCrgen&terms=on"), {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    }).formData();
    expect(form.get("vorname")).toBe("Jürgen");
  });

  it("json(): the text once, also when the stream was asked for first", async () => {
    const data = { name: "Jürgen", list: [1, "ä€𝄞"] };
    const answer = json(data);
    expect(await answer.json()).toEqual(data);
    await expect(answer.json()).rejects.toThrow(TypeError);
    const streamed = json(data);
    expect(JSON.parse(await new Response(streamed.body).text())).toEqual(data);
    await expect(streamed.text()).rejects.toThrow(TypeError);
  });
});
