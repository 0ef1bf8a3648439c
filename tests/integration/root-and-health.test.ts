import { describe, expect, it } from "vitest";
import { loader as rootLoader } from "~/root";
import { loader as healthLoader } from "~/routes/healthz";
import { action as logoutAction } from "~/routes/logout";
import { redirectWithFlash } from "~/services/flash.server";
import { getUser } from "~/services/session.server";
import { createUser, sessionCookieFor } from "../support/fixtures";

const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/healthz", () => {
  it("answers 200 ok when the database answers", async () => {
    const response = await healthLoader();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });
});

describe("the root loader", () => {
  it("knows the signed-in user and the footer links", async () => {
    const user = await createUser({ role: "admin", firstName: "Greta" });
    const response = await rootLoader(args(new Request("http://localhost/", { headers: { Cookie: await sessionCookieFor(user.id) } })));
    const data = await response.json();
    expect(data.user).toMatchObject({ id: user.id, firstName: "Greta", role: "admin" });
    expect(Object.keys(data.links)).toHaveLength(6);
    expect(data.flash).toBeNull();
  });

  it("shows a flash message once and clears it", async () => {
    const redirect = await redirectWithFlash("/", { kind: "success", title: "Erfolgreiche Änderung" });
    const cookie = redirect.headers.get("Set-Cookie")!.split(";")[0];
    const response = await rootLoader(args(new Request("http://localhost/", { headers: { Cookie: cookie } })));
    expect((await response.json()).flash).toEqual({ kind: "success", title: "Erfolgreiche Änderung" });
    expect(response.headers.get("Set-Cookie")).toMatch(/lf_flash=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("marks the flash cookie Secure over HTTPS, and only there", async () => {
    const https = new Request("https://lager.example.org/");
    const set = await redirectWithFlash("/", { kind: "success", title: "Gespeichert" }, { request: https });
    expect(set.headers.get("Set-Cookie")).toMatch(/^lf_flash=.*; Secure/);
    const plain = await redirectWithFlash("/", { kind: "success", title: "Gespeichert" }, { request: new Request("http://localhost/") });
    expect(plain.headers.get("Set-Cookie")).not.toContain("Secure");

    const cookie = set.headers.get("Set-Cookie")!.split(";")[0];
    const shown = await rootLoader(args(new Request("https://lager.example.org/", { headers: { Cookie: cookie } })));
    expect(shown.headers.get("Set-Cookie")).toMatch(/^lf_flash=;.*; Secure/);
  });

  it("ignores a forged flash cookie", async () => {
    const response = await rootLoader(args(new Request("http://localhost/", { headers: { Cookie: "lf_flash=eyJ0aXRsZSI6IkhhY2sifQ%3D%3D" } })));
    expect((await response.json()).flash).toBeNull();
  });
});

describe("logout", () => {
  it("ends the server session and goes to /login", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const request = new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } });
    const response = await logoutAction(args(request));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toBeNull();
  });
});
