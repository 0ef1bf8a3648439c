// Rights that go while a form is still arriving (attack probe): an action checks who may act
// before it reads the body (a stranger's 50 MB are refused at once), and again once the body is
// in, since a slow body may take minutes (SERVER_LIMITS). A right taken meanwhile counts; a
// record gone meanwhile is a 404, never a 500.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { comments, eventHelpers, eventMails, eventOwners, events, guardians, participants, registrations, users } from "../../db/schema";
import { action as panelAction } from "~/routes/gott";
import { action as detailAction } from "~/routes/freizeit.participants.participant-details.$registrationID";
import { action as mailAction } from "~/routes/freizeit.sendEmails.$id";
import { action as eventAction } from "~/routes/freizeit.$id";
import { setAdminRole, setUserActive } from "~/models/admin.server";
import { action as accountAction } from "~/routes/account.$id";
import { action as ownAccountAction } from "~/routes/account._index";
import { action as helperDetailAction } from "~/routes/freizeit.helper.$freizeitId.helper-details.$userId";
import { action as enrolAction } from "~/routes/enroll.$eventId";
import { action as offerAction } from "~/routes/platzangebot.$registrationId.$answer";
import { action as calendarAction } from "~/routes/account.kalender";
import { action as createAction } from "~/routes/freizeit.create";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { settings } from "~/services/env.server";
import { createRegistration, registration } from "../support/registrations";
import { db } from "~/services/db.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent, multipartPost, pngBytes, validEventFields } from "../support/events";
import { register } from "../support/lists-fixtures";
import { run } from "../support/remix";

/**
 * A POST of `bytes` that arrive only when `arrive()` is called; the action runs meanwhile.
 * `reading` settles once the action asks for the body, that is after its checks before the body
 * (the stream is pulled only when read: no high-water mark).
 */
function slowRequest(url: string, bytes: Uint8Array, headers: HeadersInit, params: Record<string, string>, action: (args: never) => unknown) {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let read!: () => void;
  const reading = new Promise<void>((resolve) => (read = resolve));
  const request = new Request(`http://localhost${url}`, {
    method: "POST",
    headers,
    body: new ReadableStream(
      {
        async pull(controller) {
          read();
          await arrived;
          controller.enqueue(bytes);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    ),
    duplex: "half",
  } as RequestInit);
  const answer = run(action, { request, params, context: {} });
  return { answer, arrive, reading };
}

/** A form POST whose body arrives only when `arrive()` is called. */
function slowPost(url: string, form: Record<string, string>, cookie: string, params: Record<string, string>, action: (args: never) => unknown) {
  const bytes = new TextEncoder().encode(new URLSearchParams(form).toString());
  return slowRequest(url, bytes, { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie }, params, action);
}

/** An admin as the session knows them. */
function sessionOf(admin: { id: number; email: string; firstName: string; lastName: string }) {
  return { id: admin.id, email: admin.email, firstName: admin.firstName, lastName: admin.lastName, role: "admin" as const };
}

/** A comment on a registration's detail page, arriving slowly. */
async function commentSlowly(userId: number, registrationId: number) {
  const url = `/freizeit/participants/participant-details/${registrationId}`;
  return slowPost(url, { intent: "comment-add", text: "Hat Heimweh." }, await sessionCookieFor(userId), { registrationID: String(registrationId) }, detailAction);
}

/** Changes something while the body of `slow` is on its way, then lets it arrive: the answer. */
async function meanwhile(slow: { answer: Promise<Response>; arrive: () => void; reading: Promise<void> }, change: () => unknown) {
  await slow.reading; // the action passed its checks before the body and waits for it
  change();
  slow.arrive();
  return slow.answer;
}

beforeEach(() => resetDatabase());

describe("a right taken while the body arrives", () => {
  it("an admin deactivated meanwhile grants no admin rights", async () => {
    const first = await createUser({ role: "admin" });
    const second = await createUser({ role: "admin" });
    const target = await createUser();
    const slow = slowPost("/gott", { intent: "grant-admin", userId: String(target.id) }, await sessionCookieFor(second.id), {}, panelAction);
    const response = await meanwhile(slow, () => expect(setUserActive(sessionOf(first), second.id, false)).toMatchObject({ ok: true }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login/);
    expect(db.select().from(users).where(eq(users.id, target.id)).get()!.role).toBe("user");
  });

  it("a team helper taken off the event meanwhile adds no comment", async () => {
    const lead = await createUser();
    const team = await createUser();
    const event = createEvent({ ownerIds: [lead.id], helpers: [[team.id, "accepted"]] });
    const { registration } = register(event.id);
    const slow = await commentSlowly(team.id, registration.id);
    expect((await meanwhile(slow, () => db.delete(eventHelpers).where(eq(eventHelpers.userId, team.id)).run())).status).toBe(404);
    expect(db.select().from(comments).all()).toEqual([]);
  });

  it("a registration deleted meanwhile (its event deleted): 404, not a 500", async () => {
    const admin = await createUser({ role: "admin" });
    const event = createEvent({});
    const { registration } = register(event.id);
    const slow = await commentSlowly(admin.id, registration.id);
    expect((await meanwhile(slow, () => db.delete(events).where(eq(events.id, event.id)).run())).status).toBe(404);
    expect(db.select().from(comments).all()).toEqual([]);
  });

  it("a lead person no longer leading the event deletes nothing", async () => {
    const lead = await createUser();
    const event = createEvent({ ownerIds: [lead.id] });
    const slow = slowPost(`/freizeit/${event.id}`, { intent: "delete" }, await sessionCookieFor(lead.id), { id: String(event.id) }, eventAction);
    expect((await meanwhile(slow, () => db.delete(eventOwners).where(eq(eventOwners.userId, lead.id)).run())).status).toBe(404);
    expect(db.select().from(events).where(eq(events.id, event.id)).get()).toBeDefined();
  });

  it("an admin whose rights went meanwhile changes no one's address", async () => {
    const first = await createUser({ role: "admin" });
    const second = await createUser({ role: "admin" });
    const target = await createUser({ email: "ziel@example.org" });
    const slow = slowPost(
      `/account/${target.id}`,
      { intent: "email", email: "gekapert@example.org" },
      await sessionCookieFor(second.id),
      { id: String(target.id) },
      accountAction,
    );
    const response = await meanwhile(slow, () => expect(setAdminRole(sessionOf(first), second.id, false)).toMatchObject({ ok: true }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(db.select().from(users).where(eq(users.id, target.id)).get()!.email).toBe("ziel@example.org");
  });

  it("a lead person no longer leading the event records no helper's checks", async () => {
    const lead = await createUser();
    const helper = await createUser();
    const event = createEvent({ ownerIds: [lead.id], helpers: [[helper.id, "accepted"]] });
    const slow = slowPost(
      `/freizeit/helper/${event.id}/helper-details/${helper.id}`,
      { juleicaNumber: "12345", juleicaExpiresOn: "2030-01-01" },
      await sessionCookieFor(lead.id),
      { freizeitId: String(event.id), userId: String(helper.id) },
      helperDetailAction,
    );
    expect((await meanwhile(slow, () => db.delete(eventOwners).where(eq(eventOwners.userId, lead.id)).run())).status).toBe(404);
    expect(db.select().from(users).where(eq(users.id, helper.id)).get()!.juleicaNumber).toBeNull();
  });

  it("a parent deactivated meanwhile changes nothing on the own account", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser({ firstName: "Eva" });
    const slow = slowPost("/account", { intent: "names", firstName: "Mallory", lastName: "M" }, await sessionCookieFor(parent.id), {}, ownAccountAction);
    const response = await meanwhile(slow, () => expect(setUserActive(sessionOf(admin), parent.id, false)).toMatchObject({ ok: true }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login/);
    expect(db.select().from(users).where(eq(users.id, parent.id)).get()!.firstName).toBe("Eva");
  });

  it("a lead person no longer leading the event sends no event mail", async () => {
    const lead = await createUser();
    const event = createEvent({ ownerIds: [lead.id] });
    register(event.id, { paid: true });
    const slow = slowPost(
      `/freizeit/sendEmails/${event.id}`,
      { intent: "send", subject: "Packliste", text: "Schlafsack", audience: "both" },
      await sessionCookieFor(lead.id),
      { id: String(event.id) },
      mailAction,
    );
    expect((await meanwhile(slow, () => db.delete(eventOwners).where(eq(eventOwners.userId, lead.id)).run())).status).toBe(404);
    expect(db.select().from(eventMails).all()).toEqual([]);
  });

  describe("a parent enrolling", () => {
    async function enrolSlowly(role: "user" | "admin" = "user", eventFields: Parameters<typeof createEvent>[0] = {}) {
      const parent = await createUser({ firstName: "Eva", role });
      const event = createEvent(eventFields);
      const child = db.insert(participants).values({ userId: parent.id, firstName: "Mia", lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate: "2015-05-01" }).returning().get();
      const guardian = db.insert(guardians).values({ userId: parent.id, firstName: "Eva", lastName: "Muster" }).returning().get();
      const form = {
        submissionKey: "langsamer-schluessel-1",
        referral: "",
        paymentMethod: "transfer",
        terms: "on",
        intent: "submit",
        "boxes[0].participant": String(child.id),
        "boxes[0].guardian": String(guardian.id),
      };
      const slow = slowPost(`/enroll/${event.id}`, form, await sessionCookieFor(parent.id), { eventId: String(event.id) }, enrolAction);
      return { parent, slow };
    }

    it("deactivated meanwhile enrols no child", async () => {
      const admin = await createUser({ role: "admin" });
      const { parent, slow } = await enrolSlowly();
      const response = await meanwhile(slow, () => expect(setUserActive(sessionOf(admin), parent.id, false)).toMatchObject({ ok: true }));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/login/);
      expect(db.select().from(registrations).all()).toEqual([]);
    });

    it("an admin demoted meanwhile enrols no child in an event only staff may see", async () => {
      const admin = await createUser({ role: "admin" });
      const { parent, slow } = await enrolSlowly("admin", { onlyStaffVisible: true });
      const response = await meanwhile(slow, () => expect(setAdminRole(sessionOf(admin), parent.id, false)).toMatchObject({ ok: true }));
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("Die Freizeit wurde nicht gefunden");
      expect(db.select().from(registrations).all()).toEqual([]);
    });

    it("whose account was deleted meanwhile (in another tab) gets the login, not a 500", async () => {
      const { parent, slow } = await enrolSlowly();
      const response = await meanwhile(slow, () => db.delete(users).where(eq(users.id, parent.id)).run());
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/login/);
      expect(db.select().from(registrations).all()).toEqual([]);
    });
  });

  it("a parent deactivated meanwhile takes no offered place", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const event = createEvent({ capacity: 1 });
    const offered = createRegistration(event.id, parent.id, { waiting: 1, offerExpiresAt: new Date(Date.now() + 3600_000) });
    const slow = slowPost(`/platzangebot/${offered.id}/annehmen`, {}, await sessionCookieFor(parent.id), { registrationId: String(offered.id), answer: "annehmen" }, offerAction);
    const response = await meanwhile(slow, () => expect(setUserActive(sessionOf(admin), parent.id, false)).toMatchObject({ ok: true }));
    expect(response.headers.get("Location")).toMatch(/^\/login/);
    expect(registration(offered.id).waitingListPosition).toBe(1);
  });

  it("a parent deactivated meanwhile gets no new calendar address", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser();
    const before = db.select().from(users).where(eq(users.id, parent.id)).get()!;
    const slow = slowPost("/account/kalender", {}, await sessionCookieFor(parent.id), {}, calendarAction);
    const response = await meanwhile(slow, () => expect(setUserActive(sessionOf(admin), parent.id, false)).toMatchObject({ ok: true }));
    expect(response.headers.get("Location")).toMatch(/^\/login/);
    expect(db.select().from(users).where(eq(users.id, parent.id)).get()!.calendarTokenHash).toBe(before.calendarTokenHash);
  });

  it("an admin whose rights went while the new event's pictures arrived creates no event and keeps no file", async () => {
    const first = await createUser({ role: "admin" });
    const second = await createUser({ role: "admin" });
    const { request: whole } = multipartPost("/freizeit/create", validEventFields({ ownerIds: [String(second.id)] }), { picture: [{ name: "bild.png", bytes: pngBytes() }] }, await sessionCookieFor(second.id));
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const slow = slowRequest("/freizeit/create", bytes, whole.headers, {}, createAction);
    const response = await meanwhile(slow, () => expect(setAdminRole(sessionOf(first), second.id, false)).toMatchObject({ ok: true }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(db.select().from(events).all()).toEqual([]);
    const pictures = path.join(settings().uploadsDir, "pictures");
    expect(existsSync(pictures) ? readdirSync(pictures) : []).toEqual([]);
  });
});
