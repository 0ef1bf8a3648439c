// A form sent after its session ran out is kept for the login (decision 0020): a parent's review
// found the enrolment form's answers lost when the session ended while it was open.
import { createCookie } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { parkedForms, participants, registrations, sessions } from "../../db/schema";
import { action, loader } from "~/routes/enroll.$eventId";
import { action as logoutAction } from "~/routes/logout";
import { takeFlash } from "~/services/flash.server";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { deleteExpiredParkedForms, PARKED_FOR_MS } from "~/services/parked-forms.server";
import { deleteExpiredSessions, EXPIRED_SESSION_KEPT_MS, endSession } from "~/services/session.server";
import { createEvent } from "../support/events";
import { createUser, sessionCookieFor } from "../support/fixtures";
import { body, cookieFrom, get, post, run } from "../support/remix";

const NEEDS = "Erdnussallergie, Notfallspritze im Rucksack";

async function flashOf(response: Response) {
  const cookie = cookieFrom(response, "lf_flash")!;
  return (await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookie } })))?.flash;
}

function expire(userId: number, by = 1000) {
  db.update(sessions).set({ expiresAt: new Date(Date.now() - by) }).where(eq(sessions.userId, userId)).run();
}

async function setUp() {
  const parent = await createUser({ firstName: "Petra" });
  const child = db
    .insert(participants)
    .values({ userId: parent.id, firstName: "Lotta", lastName: "Paulsen", street: "Strandweg 3", city: "Eutin", birthDate: "2005-04-01" })
    .returning()
    .get();
  const camp = createEvent({ title: "Aufbewahrt-Freizeit", priceCents: 9900, inDays: 40 });
  const fields = {
    submissionKey: `aufbewahrt-${Date.now()}-abcdef`,
    intent: "submit",
    "boxes[0].participant": String(child.id),
    "boxes[0].answersFor": String(child.id),
    "boxes[0].specialNeeds": NEEDS,
    referral: "Von Nachbarn",
    paymentMethod: "transfer",
    terms: "on",
  };
  const path = `/enroll/${camp.id}`;
  const params = { eventId: String(camp.id) };
  return { parent, child, camp, fields, path, params };
}

/** The parked form's cookie as a Cookie header value, beside a new session's. */
async function cookiesAfterLogin(response: Response, userId: number) {
  return `${cookieFrom(response, "lf_formular")}; ${await sessionCookieFor(userId)}`;
}

describe("a form sent after its session ran out", () => {
  beforeEach(() => {
    db.delete(parkedForms).run();
  });

  it("is kept sealed, the login says so, and the form's page shows it filled in again once, unsent", async () => {
    const { parent, camp, fields, path, params } = await setUp();
    const cookie = await sessionCookieFor(parent.id);
    expire(parent.id);

    const sent = await run(action, post(path, fields, { cookie, params }));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    expect(await flashOf(sent)).toEqual({
      kind: "info",
      title: "Ihre Sitzung ist abgelaufen",
      message:
        "Bitte loggen Sie sich erneut ein. Ihr Formular wurde noch nicht gesendet. Ihre Angaben sind eine Stunde lang aufbewahrt: Nach dem Einloggen stehen sie wieder darin.",
    });
    const parkedCookie = sent.headers.getSetCookie().find((c) => c.startsWith("lf_formular="))!;
    expect(parkedCookie).toContain(`Path=${path}`);
    expect(parkedCookie).toContain("HttpOnly");
    expect(parkedCookie).toContain("Max-Age=3600");
    // Nothing enrolled; the database holds only what it cannot read.
    expect(db.select().from(registrations).where(eq(registrations.eventId, camp.id)).all()).toEqual([]);
    const rows = db.select().from(parkedForms).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: parent.id, path });
    expect(rows[0].sealed.toString("latin1")).not.toContain("Erdnuss");

    const cookies = await cookiesAfterLogin(sent, parent.id);
    const page = await run(loader, get(path, { cookie: cookies, params }));
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie().some((c) => c.startsWith("lf_formular=;"))).toBe(true);
    const data = await body<{ restored: { payload: Record<string, unknown>; errors: object } }>(page);
    expect(data.restored.errors).toEqual({});
    expect(data.restored.payload).toMatchObject({ referral: "Von Nachbarn", paymentMethod: "transfer", submissionKey: fields.submissionKey });
    expect((data.restored.payload.boxes as Record<string, unknown>[])[0]).toMatchObject({ specialNeeds: NEEDS });
    expect(db.select().from(parkedForms).all()).toEqual([]);
    // Taken once: the next visit shows the empty form.
    const again = await body<{ restored: unknown }>(await run(loader, get(path, { cookie: cookies, params })));
    expect(again.restored).toBeNull();
  });

  it("is shown to its own account only, at its own address, within the hour", async () => {
    const { parent, fields, path, params } = await setUp();
    const other = await createUser({ firstName: "Otto" });
    const cookie = await sessionCookieFor(parent.id);
    expire(parent.id);
    const sent = await run(action, post(path, fields, { cookie, params }));

    // Someone else signing in on the same browser sees the empty form, and the kept one stays.
    const asOther = await body<{ restored: unknown }>(await run(loader, get(path, { cookie: await cookiesAfterLogin(sent, other.id), params })));
    expect(asOther.restored).toBeNull();
    expect(db.select().from(parkedForms).all()).toHaveLength(1);
    // A cookie with a wrong key opens nothing.
    const signed = createCookie("lf_formular", { secrets: [settings().sessionSecret] });
    const [id] = String(await signed.parse(cookieFrom(sent, "lf_formular")!)).split(".");
    const forged = `${(await signed.serialize(`${id}.${Buffer.alloc(32).toString("base64url")}`)).split(";")[0]}; ${await sessionCookieFor(parent.id)}`;
    expect((await body<{ restored: unknown }>(await run(loader, get(path, { cookie: forged, params })))).restored).toBeNull();

    // After the hour: not shown, and the tidy-up deletes it.
    const second = await run(action, post(path, fields, { cookie, params }));
    db.update(parkedForms).set({ expiresAt: new Date(Date.now() - 1) }).run();
    expect((await body<{ restored: unknown }>(await run(loader, get(path, { cookie: await cookiesAfterLogin(second, parent.id), params })))).restored).toBeNull();
    expect(deleteExpiredParkedForms(Date.now() + PARKED_FOR_MS)).toBe(1);
  });

  it("is dropped when its account logs out before going back to the form (a shared computer keeps nothing)", async () => {
    const { parent, fields, path, params } = await setUp();
    const other = await createUser({ firstName: "Otto" });
    const [parentCookie, otherCookie] = [await sessionCookieFor(parent.id), await sessionCookieFor(other.id)];
    expire(parent.id);
    expire(other.id);
    await run(action, post(path, fields, { cookie: parentCookie, params }));
    await run(action, post(path, fields, { cookie: otherCookie, params }));
    expect(db.select().from(parkedForms).all()).toHaveLength(2);
    // Signed in again, the parent goes elsewhere and logs out.
    const loggedOut = await run(logoutAction, post("/logout", {}, { cookie: await sessionCookieFor(parent.id) }));
    expect(loggedOut.status).toBe(302);
    expect(db.select({ userId: parkedForms.userId }).from(parkedForms).all()).toEqual([{ userId: other.id }]);
  });

  it("is not kept when the session was ended on purpose or there was none; the message says to fill it in again", async () => {
    const { parent, fields, path, params } = await setUp();
    const cookie = await sessionCookieFor(parent.id);
    await endSession(new Request("http://localhost/", { headers: { Cookie: cookie } }));
    for (const sentCookie of [cookie, undefined]) {
      const sent = await run(action, post(path, fields, { cookie: sentCookie, params }));
      expect(sent.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect((await flashOf(sent))?.message).toContain("Bitte füllen Sie es nach dem Einloggen noch einmal aus.");
      expect(cookieFrom(sent, "lf_formular")).toBeUndefined();
    }
    expect(db.select().from(parkedForms).all()).toEqual([]);
  });

  // An attack probe: a ';' in the address (the cookie's path) threw after the form was stored.
  it("is kept only at an event's own address; any other answers with the way to the login, never a 500", async () => {
    const { parent, fields } = await setUp();
    const cookie = await sessionCookieFor(parent.id);
    expire(parent.id);
    for (const eventId of ["1;x", "abc", "0"]) {
      const sent = await run(action, post(`/enroll/${eventId}`, fields, { cookie, params: { eventId } }));
      expect([eventId, sent.status, sent.headers.get("Location")]).toEqual([eventId, 302, `/login?redirectTo=${encodeURIComponent(`/enroll/${eventId}`)}`]);
      expect(cookieFrom(sent, "lf_formular")).toBeUndefined();
    }
    expect(db.select().from(parkedForms).all()).toEqual([]);
  });

  it("keeps nothing when the session is ended while the body arrives, or the body is refused; keeps no password", async () => {
    const { parent, fields, path, params } = await setUp();
    const cookie = await sessionCookieFor(parent.id);
    expire(parent.id);
    // Signed out elsewhere while a slow body arrives.
    const bytes = new TextEncoder().encode(new URLSearchParams(fields).toString());
    const slow = new ReadableStream<Uint8Array>({
      pull(controller) {
        db.delete(sessions).where(eq(sessions.userId, parent.id)).run();
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const init = { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: slow, duplex: "half" } as RequestInit;
    const ended = await run(action, { request: new Request(`http://localhost${path}`, init), params, context: {} });
    expect(ended.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    expect(cookieFrom(ended, "lf_formular")).toBeUndefined();
    expect(db.select().from(parkedForms).all()).toEqual([]);

    // A body the limits refuse: the way to the login all the same.
    const again = await sessionCookieFor(parent.id);
    expire(parent.id);
    const refused = await run(action, post(path, { ...fields, "boxes[5000].participant": "1" }, { cookie: again, params }));
    expect(refused.status).toBe(302);
    expect((await flashOf(refused))?.message).toContain("Bitte füllen Sie es nach dem Einloggen noch einmal aus.");

    // A field that looks like a password is never kept.
    const kept = await run(action, post(path, { ...fields, password: "Geheim-2026!" }, { cookie: again, params }));
    const page = await body<{ restored: { payload: Record<string, unknown> } }>(await run(loader, get(path, { cookie: await cookiesAfterLogin(kept, parent.id), params })));
    expect(page.restored.payload.password).toBeUndefined();
    expect(page.restored.payload.referral).toBe("Von Nachbarn");
  });

  it("keeps one form per account, and a run-out session names its account for 30 days", async () => {
    const { parent, fields, path, params } = await setUp();
    const cookie = await sessionCookieFor(parent.id);
    expire(parent.id);
    await run(action, post(path, fields, { cookie, params }));
    await run(action, post("/enroll/999999", fields, { cookie, params: { eventId: "999999" } }));
    expect(db.select({ path: parkedForms.path }).from(parkedForms).all()).toEqual([{ path: "/enroll/999999" }]);

    expect(deleteExpiredSessions()).toBe(0);
    expect(db.select().from(sessions).where(eq(sessions.userId, parent.id)).all()).toHaveLength(1);
    expire(parent.id, EXPIRED_SESSION_KEPT_MS + 1000);
    expect(deleteExpiredSessions()).toBeGreaterThanOrEqual(1);
    expect(db.select().from(sessions).where(eq(sessions.userId, parent.id)).all()).toEqual([]);
  });
});
