// Running behind a reverse proxy (TRUST_PROXY) and on one interface (HOST). The proxy here does
// what the README's nginx example does: it passes Host and adds X-Forwarded-For and
// X-Forwarded-Proto.
import { request as httpRequest, createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rawRequest, type RawResponse } from "../support/http";
import { ADMIN, startOwnServer, type OwnServer } from "../support/server";

const PUBLIC = "https://public.example";

/** A reverse proxy on loopback in front of `target`; the client's address comes from X-Test-Client. */
async function startProxy(target: OwnServer) {
  const server: Server = createServer((req, res) => {
    const client = String(req.headers["x-test-client"] ?? "203.0.113.1");
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, "x-forwarded-for": client, "x-forwarded-proto": "https" };
    delete headers["x-test-client"];
    const upstream = httpRequest(
      { host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const setCookies = (response: RawResponse) => [response.headers["set-cookie"] ?? []].flat();

describe.each<{ name: string; env: Record<string, string>; trusted: boolean }>([
  { name: "with the default TRUST_PROXY (loopback)", env: {}, trusted: true },
  { name: "with TRUST_PROXY=false", env: { TRUST_PROXY: "false" }, trusted: false },
])("behind a reverse proxy $name", ({ env, trusted }) => {
  let app: OwnServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    app = await startOwnServer(env);
    proxy = await startProxy(app);
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.stop();
  });

  const viaProxy = (path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    rawRequest(`${proxy.url}${path}`, { ...options, headers: { Host: "public.example", ...options.headers } });

  it(trusted ? "takes a form post from the public https:// origin" : "refuses the forwarded origin", async () => {
    const cookie = await app.sessionCookie(ADMIN.email);
    const response = await viaProxy("/logout", {
      method: "POST",
      headers: { Cookie: cookie, Origin: PUBLIC, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(response.status).toBe(trusted ? 302 : 403);
    // Straight to the server (no proxy), the same origin is foreign: plain http on 127.0.0.1.
    const direct = await rawRequest(`${app.baseUrl}/logout`, {
      method: "POST",
      headers: { Cookie: await app.sessionCookie(ADMIN.email), Origin: PUBLIC },
    });
    expect(direct.status).toBe(403);
  });

  it(trusted ? "marks every cookie Secure and asks for HTTPS (HSTS)" : "sends no HSTS and no Secure cookies", async () => {
    // Not signed in: a redirect to /login with a flash message (a cookie).
    const response = await viaProxy("/account");
    expect(response.status).toBe(302);
    const cookies = setCookies(response);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(/;\s*Secure/i.test(cookie)).toBe(trusted);
    expect(response.headers["strict-transport-security"]).toBe(trusted ? "max-age=31536000" : undefined);
    // Over plain http, never HSTS.
    expect((await rawRequest(`${app.baseUrl}/`)).headers["strict-transport-security"]).toBeUndefined();
  });

  it(trusted ? "throttles sign-ins per forwarded client address" : "sees only the proxy's address", async () => {
    for (const client of ["203.0.113.7", "198.51.100.9"]) {
      const response = await viaProxy("/login", {
        method: "POST",
        headers: { "X-Test-Client": client, "Content-Type": "application/x-www-form-urlencoded", Origin: PUBLIC },
        body: new URLSearchParams({ email: ADMIN.email, password: "falsches-Passwort-1" }).toString(),
      });
      expect(response.status).toBe(trusted ? 401 : 403);
      if (!trusted) {
        // Without trust the origin check already refuses; the same post without Origin reaches the throttle.
        const plain = await viaProxy("/login", {
          method: "POST",
          headers: { "X-Test-Client": client, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email: ADMIN.email, password: "falsches-Passwort-1" }).toString(),
        });
        expect(plain.status).toBe(401);
      }
    }
    const keys = app.query<{ client_key: string }>("select client_key from login_attempts order by id").map((r) => r.client_key);
    expect(keys).toEqual(trusted ? ["203.0.113.7", "198.51.100.9"] : ["127.0.0.1", "127.0.0.1"]);
  });
});

describe("HOST", () => {
  const reachable = (url: string) =>
    fetch(url).then(
      (response) => response.status,
      () => "refused",
    );

  it("binds only the given interface; unset, every interface", async () => {
    const app = await startOwnServer({ HOST: "127.0.0.1" });
    try {
      expect(await reachable(`http://127.0.0.1:${app.port}/healthz`)).toBe(200);
      expect(await reachable(`http://[::1]:${app.port}/healthz`)).toBe("refused");
    } finally {
      await app.stop();
    }
    // The shared test server runs without HOST.
    const { port } = new URL(inject("e2e")!.baseUrl);
    expect(await reachable(`http://[::1]:${port}/healthz`)).toBe(200);
  });
});
