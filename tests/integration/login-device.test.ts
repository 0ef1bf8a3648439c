// Sign-in throttling without lockout (OWASP device cookies): an attacker's failures cannot lock
// the owner out of a browser they have signed in with before.
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_CLIENT, MAX_FAILURES_PER_DEVICE, MAX_FAILURES_PER_EMAIL } from "~/models/password-tries.server";
import { action as accountAction } from "~/routes/account._index";
import { action as emailConfirmAction } from "~/routes/email-bestaetigen.$token";
import { action as forgotAction } from "~/routes/forgot";
import { action as loginAction } from "~/routes/login";
import { action as resetAction } from "~/routes/resetPassword.$token";
import { DEVICE_MARKS_MAX } from "~/services/device.server";
import { createUser, resetDatabase } from "../support/fixtures";
import { cookieFrom, linkIn, outbox, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

const PASSWORD = "Lagerfeuer-2026!";
const ATTACKER_IP = "203.0.113.66";

/** A sign-in from `ip`, with the browser's cookies (the device mark) when it has any. */
function login(email: string, password: string, ip: string, cookie?: string) {
  return run(loginAction, post("/login", { email, password }, { context: { clientIp: ip }, cookie }));
}

/** A browser that signs in successfully once and keeps its device mark. */
async function knownBrowser(email: string, ip = "198.51.100.7", cookie?: string) {
  const response = await login(email, PASSWORD, ip, cookie);
  expect(response.status).toBe(302);
  const mark = cookieFrom(response, "lf_device");
  expect(mark).toBeDefined();
  return mark!;
}

async function attack(email: string, times: number, ip = ATTACKER_IP) {
  const statuses = [];
  for (let i = 0; i < times; i++) statuses.push((await login(email, `Geraten-${i}!`, ip)).status);
  return statuses;
}

describe("sign-in throttling with device marks", () => {
  it("lets the owner in from a known browser while an attacker has locked the address, even from the attacker's address", async () => {
    await createUser({ email: "admin@example.org", password: PASSWORD, role: "admin" });
    const ownersBrowser = await knownBrowser("admin@example.org");

    const statuses = await attack("admin@example.org", 12);
    expect(statuses.slice(0, MAX_FAILURES_PER_EMAIL)).toEqual(Array(MAX_FAILURES_PER_EMAIL).fill(401));
    expect(statuses.slice(MAX_FAILURES_PER_EMAIL)).toEqual(Array(12 - MAX_FAILURES_PER_EMAIL).fill(429));
    // The attacker stays throttled, also with the right password.
    expect((await login("admin@example.org", PASSWORD, ATTACKER_IP)).status).toBe(429);

    // The owner's known browser signs in at once, from anywhere, even the attacker's address.
    const owner = await login("admin@example.org", PASSWORD, ATTACKER_IP, ownersBrowser);
    expect(owner.status).toBe(302);
    expect(cookieFrom(owner, "lf_session")).toBeDefined();
    expect((await login("admin@example.org", PASSWORD, "192.0.2.1", ownersBrowser)).status).toBe(302);

    // An unknown browser of the owner is throttled like any other.
    expect((await login("admin@example.org", PASSWORD, "192.0.2.2")).status).toBe(429);
  });

  it("does not lock a known browser out of a client address an attacker has exhausted", async () => {
    await createUser({ email: "eltern@example.org", password: PASSWORD });
    const browser = await knownBrowser("eltern@example.org", ATTACKER_IP);
    for (let i = 0; i < MAX_FAILURES_PER_CLIENT; i++) await login(`versuch${i}@example.org`, "Falsch-1!", ATTACKER_IP);
    expect((await login("eltern@example.org", PASSWORD, ATTACKER_IP)).status).toBe(429);
    expect((await login("eltern@example.org", PASSWORD, ATTACKER_IP, browser)).status).toBe(302);
  });

  it("counts failures made with a device mark against that mark only", async () => {
    await createUser({ email: "eltern@example.org", password: PASSWORD });
    const laptop = await knownBrowser("eltern@example.org");
    const phone = await knownBrowser("eltern@example.org", "198.51.100.8");

    for (let i = 0; i < MAX_FAILURES_PER_DEVICE; i++) {
      expect((await login("eltern@example.org", `Vertippt-${i}!`, "198.51.100.7", laptop)).status).toBe(401);
    }
    // Only the laptop's mark is locked, even with the right password …
    expect((await login("eltern@example.org", PASSWORD, "198.51.100.7", laptop)).status).toBe(429);
    // … the phone and unknown browsers (the address's count is untouched) still get in.
    expect((await login("eltern@example.org", PASSWORD, "198.51.100.7", phone)).status).toBe(302);
    expect((await login("eltern@example.org", PASSWORD, "198.51.100.7")).status).toBe(302);
  });

  it("helps only for the account it was issued for", async () => {
    await createUser({ email: "angreifer@example.org", password: PASSWORD });
    await createUser({ email: "admin@example.org", password: PASSWORD, role: "admin" });
    const attackersBrowser = await knownBrowser("angreifer@example.org", ATTACKER_IP);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL + 3; i++) await login("admin@example.org", `Geraten-${i}!`, ATTACKER_IP, attackersBrowser);
    expect((await login("admin@example.org", PASSWORD, ATTACKER_IP, attackersBrowser)).status).toBe(429);
    expect((await login("admin@example.org", PASSWORD, "192.0.2.9")).status).toBe(429);
  });

  it("treats a forged or altered mark as an unknown browser", async () => {
    await createUser({ email: "admin@example.org", password: PASSWORD });
    const mark = await knownBrowser("admin@example.org");
    await attack("admin@example.org", MAX_FAILURES_PER_EMAIL);
    const [name, value] = mark.split("=");
    const altered = `${name}=${value.slice(0, 10)}${value[10] === "A" ? "B" : "A"}${value.slice(11)}`;
    const unsigned = `${name}=${encodeURIComponent(btoa(JSON.stringify([{ account: "x", nonce: "y" }])))}`;
    for (const cookie of [altered, unsigned, "lf_device=kaputt"]) {
      expect((await login("admin@example.org", PASSWORD, "192.0.2.3", cookie)).status).toBe(429);
    }
    expect((await login("admin@example.org", PASSWORD, "192.0.2.3", mark)).status).toBe(302);
  });

  it(`remembers up to ${DEVICE_MARKS_MAX} accounts per browser, the most recent ones`, async () => {
    const emails = Array.from({ length: DEVICE_MARKS_MAX + 1 }, (_, i) => `konto${i}@example.org`);
    for (const email of emails) await createUser({ email, password: PASSWORD });
    let browser: string | undefined;
    for (const email of emails) browser = await knownBrowser(email, "198.51.100.7", browser);
    for (const email of emails) await attack(email, MAX_FAILURES_PER_EMAIL, `203.0.113.${emails.indexOf(email) + 1}`);
    // The first account has been pushed out; the other five still know this browser.
    expect((await login(emails[0], PASSWORD, "198.51.100.7", browser)).status).toBe(429);
    for (const email of emails.slice(1)) expect((await login(email, PASSWORD, "198.51.100.7", browser)).status).toBe(302);
  });

  it("sets a long-lived HttpOnly, SameSite=Lax mark, Secure over HTTPS, only after a successful sign-in", async () => {
    await createUser({ email: "eltern@example.org", password: PASSWORD });
    const wrong = await login("eltern@example.org", "Falsch-2026!", "198.51.100.7");
    expect(cookieFrom(wrong, "lf_device")).toBeUndefined();

    const plain = await login("eltern@example.org", PASSWORD, "198.51.100.7");
    const header = plain.headers.getSetCookie().find((c) => c.startsWith("lf_device="))!;
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).not.toMatch(/Secure/);
    expect(Number(/Max-Age=(\d+)/.exec(header)![1])).toBeGreaterThanOrEqual(180 * 24 * 3600);
    expect(header).not.toContain("eltern");

    const request = new Request("https://lager.example.org/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "eltern@example.org", password: PASSWORD }),
    });
    const secure = await run(loginAction, { request, params: {}, context: { clientIp: "198.51.100.7" } });
    expect(secure.headers.getSetCookie().find((c) => c.startsWith("lf_device="))).toMatch(/Secure/);
  });

  it("gives no mark to a banned or unconfirmed account", async () => {
    await createUser({ email: "gesperrt@example.org", password: PASSWORD, banned: true });
    await createUser({ email: "neu@example.org", password: PASSWORD, confirmed: false });
    expect(cookieFrom(await login("gesperrt@example.org", PASSWORD, "198.51.100.7"), "lf_device")).toBeUndefined();
    expect(cookieFrom(await login("neu@example.org", PASSWORD, "198.51.100.7"), "lf_device")).toBeUndefined();
  });

  // Found by an attack probe: the owner's way back in, the reset link, still met the lock.
  it("gives the browser that set a new password through the mailed link a mark: the owner gets in while the address is locked", async () => {
    await createUser({ email: "eltern@example.org", password: PASSWORD });
    await attack("eltern@example.org", MAX_FAILURES_PER_EMAIL);
    expect((await run(forgotAction, post("/forgot", { email: "eltern@example.org" }))).status).toBe(302);
    const link = linkIn(outbox()[0].text);
    const token = link.split("/").pop()!;
    const NEW = "Ganz-Neu-2026!";
    const reset = await run(resetAction, post(link, { password: NEW, confirmPassword: NEW }, { params: { token }, context: { clientIp: "198.51.100.7" } }));
    expect(reset.status).toBe(302);
    const mark = cookieFrom(reset, "lf_device");
    expect(mark).toBeDefined();
    expect((await login("eltern@example.org", NEW, "198.51.100.7", mark)).status).toBe(302);
    // Any other browser is still throttled.
    expect((await login("eltern@example.org", NEW, "192.0.2.50")).status).toBe(429);
  });

  // Found by an attack probe: a mark named the account by its address, so after an address change
  // the owner's own browser counted as unknown, and a stranger's failures locked its password change.
  it("keeps a browser known to its account after the address changes", async () => {
    await createUser({ email: "alt@example.org", password: PASSWORD });
    const signedIn = await login("alt@example.org", PASSWORD, "198.51.100.7");
    const cookie = [cookieFrom(signedIn, "lf_session"), cookieFrom(signedIn, "lf_device")].join("; ");
    await run(accountAction, post("/account", { intent: "email", email: "neu@example.org" }, { cookie }));
    const link = linkIn(outbox()[0].text);
    expect((await run(emailConfirmAction, post(link, {}, { cookie, params: { token: link.split("/").pop()! } }))).status).toBe(302);

    await attack("neu@example.org", MAX_FAILURES_PER_EMAIL + 1);
    const NEW = "Neues-Passwort-2026!";
    const change = await run(
      accountAction,
      post("/account", { intent: "password", currentPassword: PASSWORD, newPassword: NEW, newPasswordRepeat: NEW }, { cookie, context: { clientIp: ATTACKER_IP } }),
    );
    expect(change.status).toBe(302);
    expect(change.headers.get("Location")).toBe("/account");
    expect((await login("neu@example.org", NEW, "198.51.100.7", cookieFrom(signedIn, "lf_device"))).status).toBe(302);
  });
});
