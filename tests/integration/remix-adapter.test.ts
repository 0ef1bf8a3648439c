// The server's own bridge between node's http and Remix (remix-adapter.server.ts) on a real HTTP
// server: the request Remix sees, and each kind of answer as the client gets it.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FinishedResponse } from "~/services/finished-response.server";
import { json } from "~/services/json.server";
import { loadContext, remixRequest, sendRemixResponse } from "~/services/remix-adapter.server";
import { rawRequest } from "../support/http";

let server: Server;
let base = "";
/** What the fake Remix answers, by path; it also records the request it was given. */
let answerFor: (request: Request) => Response | Promise<Response> = () => new Response(null, { status: 204 });
let seen: { request: Request; body?: string; aborted?: Promise<boolean> } | undefined;

const page = `<!DOCTYPE html><main>${"<p>Zeltlager am See</p>".repeat(200)}</main>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const facts = req as IncomingMessage & { protocol: string; hostname: string; ip: string };
    facts.protocol = "http";
    facts.hostname = String(req.headers.host).split(":")[0];
    facts.ip = "203.0.113.9";
    const request = remixRequest(facts, res);
    const aborted = new Promise<boolean>((resolve) => {
      request.signal.addEventListener("abort", () => resolve(true));
      res.on("finish", () => resolve(false));
    });
    seen = { request, aborted };
    void (async () => {
      if (request.body) seen!.body = await request.clone().text();
      const context = loadContext(facts, { cspNonce: "n", requestId: "r" });
      const response = await answerFor(request);
      response.headers.set("X-Client-Ip", String(context.clientIp));
      await sendRemixResponse(req, res, response);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the request Remix gets", () => {
  it("has the address, method, headers and body the client sent", async () => {
    answerFor = () => new Response(null, { status: 204 });
    await rawRequest(`${base}/enroll/7?schritt=2`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: "a=1", "X-Forwarded-Host": "lager.example:8443" },
      body: "terms=on&paymentMethod=transfer",
    });
    expect(seen!.request.method).toBe("POST");
    expect(seen!.request.url).toBe("http://127.0.0.1:8443/enroll/7?schritt=2");
    expect(seen!.request.headers.get("cookie")).toBe("a=1");
    expect(seen!.body).toBe("terms=on&paymentMethod=transfer");
    expect(await seen!.aborted).toBe(false);
  });

  it("gives a GET no body, and the client's address only when a route asks", async () => {
    await rawRequest(`${base}/`);
    expect(seen!.request.body).toBeNull();
    const answer = await rawRequest(`${base}/`);
    expect(answer.headers["x-client-ip"]).toBe("203.0.113.9");
  });
});

describe("the answer the client gets", () => {
  it("a finished page: in one piece, gzipped when taken, with its length, status and headers", async () => {
    answerFor = () => new FinishedResponse(Buffer.from(page), { status: 201, headers: { "Content-Type": "text/html; charset=utf-8", Vary: "Cookie" } });
    const zipped = await rawRequest(`${base}/`, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    expect(zipped.status).toBe(201);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["content-length"]).toBe(String(zipped.body.length));
    expect(zipped.headers.vary).toBe("Cookie, Accept-Encoding");
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(page);
    const plain = await rawRequest(`${base}/`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text()).toBe(page);
  });

  it("a loader's JSON and a Response made elsewhere: also read whole and gzipped", async () => {
    const data = { events: Array.from({ length: 100 }, (_, i) => ({ id: i, title: `Freizeit ${i}` })) };
    answerFor = () => json(data);
    const fromJson = await rawRequest(`${base}/?_data=root`, { headers: { "Accept-Encoding": "gzip" } });
    expect(JSON.parse(gunzipSync(fromJson.body).toString("utf8"))).toEqual(data);
    answerFor = () => new Response(page, { headers: { "Content-Type": "text/calendar; charset=utf-8" } });
    const calendar = await rawRequest(`${base}/kalender.ics`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gunzipSync(calendar.body).toString("utf8")).toBe(page);
  });

  it("a file: streamed as it is, never compressed; and no-transform or a small body is left alone", async () => {
    const bytes = Buffer.alloc(200_000, 7);
    answerFor = () => new Response(bytes, { headers: { "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } });
    const sheet = await rawRequest(`${base}/liste.xlsx`, { headers: { "Accept-Encoding": "gzip" } });
    expect(sheet.headers["content-encoding"]).toBeUndefined();
    expect(sheet.body.equals(bytes)).toBe(true);
    answerFor = () => new FinishedResponse(Buffer.from(page), { headers: { "Content-Type": "text/html", "Cache-Control": "no-transform" } });
    expect((await rawRequest(`${base}/`, { headers: { "Accept-Encoding": "gzip" } })).headers["content-encoding"]).toBeUndefined();
    answerFor = () => new FinishedResponse(Buffer.from("<p>kurz</p>"), { headers: { "Content-Type": "text/html" } });
    expect((await rawRequest(`${base}/`, { headers: { "Accept-Encoding": "gzip" } })).text()).toBe("<p>kurz</p>");
  });

  it("an empty 500 of Remix's own (its handler's last catch) becomes the German error page", async () => {
    answerFor = () => new Response(null, { status: 500 });
    const answer = await rawRequest(`${base}/forgot`, { method: "POST", body: "email=a" });
    expect(answer.status).toBe(500);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    expect(answer.text()).toContain("lang=\"de\"");
  });

  it("a resource route's thrown 404 (an old export or calendar link) becomes the German error page; Remix's data request keeps it", async () => {
    answerFor = () => new Response("Nicht gefunden", { status: 404, headers: { "Content-Type": "text/plain;charset=UTF-8", "X-Remix-Catch": "yes" } });
    const answer = await rawRequest(`${base}/freizeit/export/7/unbekannt`);
    expect(answer.status).toBe(404);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    expect(answer.text()).toContain("<h1>Seite nicht gefunden</h1>");
    const data = await rawRequest(`${base}/freizeit/7?_data=routes%2Ffreizeit.%24id`);
    expect(data.status).toBe(404);
    expect(data.headers["x-remix-catch"]).toBe("yes");
    expect(data.text()).toBe("Nicht gefunden");
  });

  it("a redirect with several cookies keeps each cookie apart", async () => {
    answerFor = () => {
      const headers = new Headers({ Location: "/anmeldung/5" });
      headers.append("Set-Cookie", "flash=1; Path=/; HttpOnly");
      headers.append("Set-Cookie", "lf_session=abc; Path=/; HttpOnly");
      return new Response(null, { status: 302, headers });
    };
    const answer = await rawRequest(`${base}/enroll/5`);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/anmeldung/5");
    expect(answer.headers["set-cookie"]).toEqual(["flash=1; Path=/; HttpOnly", "lf_session=abc; Path=/; HttpOnly"]);
  });

  it("tells the route when the client went away before the answer", async () => {
    let release = () => {};
    answerFor = () => new Promise((resolve) => (release = () => resolve(new Response("spät"))));
    const { request } = await import("node:http");
    const client = request(`${base}/langsam`);
    client.on("error", () => {});
    seen = undefined;
    client.end();
    const arrived = () => seen?.request.url.endsWith("/langsam") === true; // read anew each time
    for (let waited = 0; !arrived() && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const aborted = seen!.aborted;
    const copy = seen!.request.clone();
    client.destroy();
    expect(await aborted).toBe(true);
    expect(copy.signal.aborted).toBe(true);
    release();
  });
});
