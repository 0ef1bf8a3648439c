import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../db/schema";
import { db } from "~/services/db.server";
import { takeFlash } from "~/services/flash.server";
import { currentSessionHash, endOtherSessions, endSession, getUser, requireAdmin, requireUser } from "~/services/session.server";
import { banUser, createUser, sessionCookieFor } from "../support/fixtures";

const NOT_SENT = "Ihr Formular wurde nicht gesendet: Bitte füllen Sie es nach dem Einloggen noch einmal aus.";

function requestWith(cookie: string | null, url = "http://localhost/account") {
  return new Request(url, { headers: cookie ? { Cookie: cookie } : {} });
}

/** The flash message a redirect carries, as the next page would show it. */
async function flashOf(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("lf_flash="))!.split(";")[0];
  return (await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookie } })))?.flash;
}

async function thrown(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as Response;
  }
  throw new Error("expected a thrown response");
}

describe("sessions", () => {
  it("knows the signed-in user from the cookie", async () => {
    const user = await createUser({ firstName: "Jonas" });
    const cookie = await sessionCookieFor(user.id);
    expect(cookie).toMatch(/^lf_session=/);
    const found = await getUser(requestWith(cookie));
    expect(found).toMatchObject({ id: user.id, firstName: "Jonas", role: "user" });
    expect(found).not.toHaveProperty("passwordHash");
  });

  it("sets an httpOnly, SameSite=Lax cookie, Secure only over HTTPS", async () => {
    const { createUserSession } = await import("~/services/session.server");
    const user = await createUser();
    const plain = await createUserSession(user.id, new Request("http://localhost/login"));
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).toMatch(/SameSite=Lax/);
    expect(plain).not.toMatch(/Secure/);
    const secure = await createUserSession(user.id, new Request("https://lager.example.org/login"));
    expect(secure).toMatch(/Secure/);
  });

  // An attack probe of decision 0020: the cookie ran out with its session, so a form sent from a
  // tab left open came without it, and nothing could be kept for the login.
  it("lets the browser keep the cookie as long as the run-out session's row names its account; the row decides", async () => {
    const { createUserSession, EXPIRED_SESSION_KEPT_MS } = await import("~/services/session.server");
    const { settings } = await import("~/services/env.server");
    const user = await createUser();
    const before = Date.now();
    const cookie = await createUserSession(user.id, new Request("http://localhost/login"));
    const ttlMs = settings().sessionTtlHours * 3600_000;
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBe(Math.floor((ttlMs + EXPIRED_SESSION_KEPT_MS) / 1000));
    const [row] = db.select().from(sessions).where(eq(sessions.userId, user.id)).all();
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + ttlMs);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + ttlMs);
  });

  it("stores only a hash of the session id", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const rows = db.select().from(sessions).where(eq(sessions.userId, user.id)).all();
    expect(rows).toHaveLength(1);
    expect(cookie).not.toContain(rows[0].idHash);
  });

  it("treats no, forged, expired and deleted sessions as signed out", async () => {
    const user = await createUser();
    expect(await getUser(requestWith(null))).toBeNull();
    expect(await getUser(requestWith("lf_session=erfunden"))).toBeNull();

    const expired = await sessionCookieFor(user.id);
    db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id)).run();
    expect(await getUser(requestWith(expired))).toBeNull();

    const ended = await sessionCookieFor(user.id);
    expect(await getUser(requestWith(ended))).not.toBeNull();
    const clearing = await endSession(requestWith(ended));
    expect(clearing).toMatch(/lf_session=;/);
    expect(await getUser(requestWith(ended))).toBeNull();
  });

  it("checks a cookie it has seen again: another signature opens nothing, other cookies beside it change nothing", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    expect((await getUser(requestWith(cookie)))?.id).toBe(user.id);
    const [name, value] = cookie.split("=");
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith("AA") ? "AB" : "AA"}`;
    expect(await getUser(requestWith(forged))).toBeNull();
    expect(await getUser(requestWith(`${forged}; ${cookie}`))).toBeNull(); // the first one counts, as in the browser
    expect((await getUser(requestWith(`lf_flash=x; ${cookie}; theme=dunkel`)))?.id).toBe(user.id);
    expect(await currentSessionHash(requestWith(`a=1;${cookie}`))).toBe(await currentSessionHash(requestWith(cookie)));
  });

  it("never lets a value it did not check open a session, however the header is written", async () => {
    const user = await createUser();
    const value = (await sessionCookieFor(user.id)).split(";")[0].slice("lf_session=".length);
    // Headers where a looser reading would take another lf_session than the parse that checks it.
    for (const [header, forged] of [
      [`lf_session =${value}; lf_session=vom-angreifer`, "lf_session=vom-angreifer"],
      [`lf_session\t=${value}; lf_session=`, "lf_session="],
      [`x=1;\u000blf_session=ungeprüft; lf_session=${value}`, "lf_session=ungeprüft"],
      [`lf_session=${value} ; lf_session=x`, "lf_session=x"],
    ]) {
      await getUser(requestWith(header));
      expect(await getUser(requestWith(forged)), header).toBeNull();
    }
    // The signed value written another way (escaped, padded) is the same value, once.
    expect((await getUser(requestWith(`lf_session=${value.replace(".", "%2E")}`)))?.id).toBe(user.id);
  });

  // Spec part 1, home: "If a token exists but the session is not valid, the user is sent to /login."
  it("sends a visit of / with a cookie whose session has ended to /login, clearing the cookie; visitors without one stay", async () => {
    const { loader: homeLoader } = await import("~/routes/_index");
    const user = await createUser();
    const ended = await sessionCookieFor(user.id);
    await endSession(requestWith(ended));
    for (const url of ["http://localhost/", "http://localhost/?filter=mine"]) {
      const answer = await thrown(Promise.resolve(homeLoader({ request: requestWith(ended, url), params: {}, context: {} })));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(new URL(url).pathname + new URL(url).search)}`);
      expect(answer.headers.getSetCookie().some((c) => /^lf_session=;/.test(c))).toBe(true);
      expect(await flashOf(answer)).toMatchObject({ title: "Ihre Sitzung ist abgelaufen", message: "Bitte loggen Sie sich erneut ein." });
    }
    for (const cookie of [null, "lf_session=erfunden", await sessionCookieFor(user.id)]) {
      const page = await homeLoader({ request: requestWith(cookie, "http://localhost/"), params: {}, context: {} });
      expect(page.status).toBe(200);
    }
  });

  it("signs a banned user out", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    banUser(user.id);
    expect(await getUser(requestWith(cookie))).toBeNull();
  });

  it("ends every session with a ban, so an unban does not revive an old cookie", async () => {
    const { setUserBanned } = await import("~/models/user.server");
    const user = await createUser();
    const other = await createUser();
    const before = await sessionCookieFor(user.id);
    const bystander = await sessionCookieFor(other.id);
    expect(setUserBanned(user.id, true)).toEqual({ ok: true });
    expect(db.select().from(sessions).where(eq(sessions.userId, user.id)).all()).toHaveLength(0);
    expect(setUserBanned(user.id, false)).toEqual({ ok: true });
    expect(await getUser(requestWith(before))).toBeNull();
    // Others keep theirs; after the unban the user can start a new session.
    expect(await getUser(requestWith(bystander))).not.toBeNull();
    expect(await getUser(requestWith(await sessionCookieFor(user.id)))).toMatchObject({ id: user.id });
  });

  it("does not ban the last admin who is not banned", async () => {
    const { setUserBanned } = await import("~/models/user.server");
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    expect(setUserBanned(admin.id, true)).toEqual({ ok: false, reason: "last_admin" });
    expect(await getUser(requestWith(cookie))).not.toBeNull();
    const second = await createUser({ role: "admin" });
    expect(setUserBanned(admin.id, true)).toEqual({ ok: true });
    expect(setUserBanned(second.id, true)).toEqual({ ok: false, reason: "last_admin" });
    expect(setUserBanned(99999, true)).toEqual({ ok: false, reason: "not_found" });
  });

  it("ends a user's other sessions and keeps the current one", async () => {
    const user = await createUser();
    const current = await sessionCookieFor(user.id);
    const other = await sessionCookieFor(user.id);
    endOtherSessions(user.id, await currentSessionHash(requestWith(current)));
    expect(await getUser(requestWith(current))).not.toBeNull();
    expect(await getUser(requestWith(other))).toBeNull();
  });

  it("sends a signed-out visitor to /login and back to where they wanted to go", async () => {
    const response = await thrown(requireUser(requestWith(null, "http://localhost/account?tab=teilnehmer")));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Faccount%3Ftab%3Dteilnehmer");
    expect(await flashOf(response)).toEqual({ kind: "info", title: "Sie sind nicht angemeldet. Bitte loggen Sie sich ein." });
  });

  it("tells a user whose session ran out and clears the old cookie", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id)).run();
    const response = await thrown(requireUser(requestWith(cookie, "http://localhost/freizeit/edit/1")));
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Ffreizeit%2Fedit%2F1");
    expect(await flashOf(response)).toEqual({ kind: "info", title: "Ihre Sitzung ist abgelaufen", message: "Bitte loggen Sie sich erneut ein." });
    expect(response.headers.getSetCookie().some((c) => c.startsWith("lf_session=;"))).toBe(true);
  });

  // A parent's review: a session that ended while the enrolment form was open sent the parent to
  // /login with "Ihre Sitzung ist abgelaufen" alone; nothing said the enrolment was not sent.
  it("says a form sent without a valid session did not arrive, so it is sent again after the login", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id)).run();
    const posted = (cookieHeader: string | null) =>
      new Request("http://localhost/enroll/7", { method: "POST", headers: { ...(cookieHeader ? { Cookie: cookieHeader } : {}), "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    const expired = await thrown(requireUser(posted(cookie)));
    expect(expired.headers.get("Location")).toBe("/login?redirectTo=%2Fenroll%2F7");
    expect(await flashOf(expired)).toEqual({ kind: "info", title: "Ihre Sitzung ist abgelaufen", message: `Bitte loggen Sie sich erneut ein. ${NOT_SENT}` });
    const none = await thrown(requireUser(posted(null)));
    expect(await flashOf(none)).toEqual({ kind: "info", title: "Sie sind nicht angemeldet. Bitte loggen Sie sich ein.", message: NOT_SENT });
  });

  it("lets only admins past the admin guard and sends others to /", async () => {
    const user = await createUser();
    const admin = await createUser({ role: "admin" });
    const denied = await thrown(requireAdmin(requestWith(await sessionCookieFor(user.id), "http://localhost/gott")));
    expect(denied.headers.get("Location")).toBe("/");
    const signedOut = await thrown(requireAdmin(requestWith(null, "http://localhost/gott")));
    expect(signedOut.headers.get("Location")).toBe("/login?redirectTo=%2Fgott");
    const allowed = await requireAdmin(requestWith(await sessionCookieFor(admin.id), "http://localhost/gott"));
    expect(allowed.id).toBe(admin.id);
  });
});

describe("one request", () => {
  it("looks the user up once, however many loaders ask", async () => {
    const user = await createUser();
    const request = requestWith(await sessionCookieFor(user.id));
    const first = getUser(request);
    expect(getUser(request)).toBe(first);
    expect((await first)?.id).toBe(user.id);
    // Another request looks again.
    expect(getUser(requestWith(null))).not.toBe(first);
  });
});
