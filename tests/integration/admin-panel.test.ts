// The admin panel (/gott): only admins, the badge numbers, roles and deactivation with their
// protections, the protocol.
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, eventHelpers, legalDocumentVersions, participants, registrations, sessions, users, type ApplicationStatus } from "../../db/schema";
import { AdminProtocol } from "~/components/admin-protocol";
import { listAdminEvents, listAdminUsers, setAdminRole, setUserActive } from "~/models/admin.server";
import { recordAudit } from "~/models/audit.server";
import { decideHelper } from "~/models/helper.server";
import { action as loginAction } from "~/routes/login";
import { action as eventAction } from "~/routes/freizeit.$id";
import { action, loader } from "~/routes/gott";
import { loader as accountLoader } from "~/routes/account._index";
import { loader as adminAccountLoader } from "~/routes/account.$id";
import { db } from "~/services/db.server";
import { takeFlash } from "~/services/flash.server";
import { getUser } from "~/services/session.server";
import { createEvent, multipartPost, pdfBytes } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, cookieFrom, get, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

async function signedIn(options: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(options);
  return { user, cookie: await sessionCookieFor(user.id) };
}

const fresh = (id: number) => db.select().from(users).where(eq(users.id, id)).get()!;

function register(eventId: number, userId: number, values: { status: ApplicationStatus; waiting?: number; paid?: boolean; amountCents?: number | null }) {
  const child = db
    .insert(participants)
    .values({ userId, firstName: "Kind", lastName: `Nr${Math.random()}`, street: "Weg 1", city: "Kiel", birthDate: "2015-05-05" })
    .returning()
    .get();
  db.insert(registrations)
    .values({
      eventId,
      participantId: child.id,
      userId,
      paymentMethod: "transfer",
      applicationStatus: values.status,
      waitingListPosition: values.waiting ?? null,
      paid: values.paid ?? false,
      amountCents: values.amountCents === undefined ? 10_000 : values.amountCents,
    })
    .run();
}

describe("admins only", () => {
  const pages = ["/gott", "/gott?tab=benutzer", "/gott?tab=protokoll", "/gott?tab=veranstaltungen&q=x&seite=2"];

  it("sends a signed-out visitor to /login and back, on every tab and every action", async () => {
    for (const url of pages) {
      const response = await run(loader, get(url));
      expect(response.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(url)}`);
    }
    const posted = await run(action, post("/gott", { intent: "grant-admin", userId: "1" }));
    expect(posted.headers.get("Location")).toBe("/login?redirectTo=%2Fgott");
  });

  it("sends a lead person and a parent to /, and their posts change nothing", async () => {
    const lead = await signedIn({ firstName: "Lea" });
    const parent = await signedIn({ firstName: "Paul" });
    createEvent({ ownerIds: [lead.user.id] });
    const target = await createUser({ firstName: "Ziel" });
    const admin = await createUser({ role: "admin" });
    for (const { cookie } of [lead, parent]) {
      for (const url of pages) {
        const response = await run(loader, get(url, { cookie }));
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
      for (const intent of ["grant-admin", "deactivate"]) {
        const response = await run(action, post("/gott?tab=benutzer", { intent, userId: String(target.id) }, { cookie }));
        expect(response.headers.get("Location")).toBe("/");
      }
      for (const intent of ["revoke-admin", "deactivate"]) {
        const response = await run(action, post("/gott?tab=benutzer", { intent, userId: String(admin.id) }, { cookie }));
        expect(response.headers.get("Location")).toBe("/");
      }
      const upload = await run(action, multipartPost("/gott", { intent: "legal" }, { datenschutz: [{ name: "ds.pdf", bytes: pdfBytes() }] }, cookie));
      expect(upload.headers.get("Location")).toBe("/");
    }
    expect(fresh(target.id)).toMatchObject({ role: "user", banned: false });
    expect(fresh(admin.id)).toMatchObject({ role: "admin", banned: false });
    expect(db.select().from(legalDocumentVersions).all()).toEqual([]);
    expect(db.select().from(auditLog).all()).toEqual([]);
  });

  it("shows an admin the event tab by default", async () => {
    const { cookie } = await signedIn({ role: "admin" });
    const data = await body<{ query: { tab: string }; events: unknown[]; users: null }>(await run(loader, get("/gott", { cookie })));
    expect(data.query.tab).toBe("veranstaltungen");
    expect(data.events).toEqual([]);
    expect(data.users).toBeNull();
  });
});

describe("Veranstaltungsverwaltung", () => {
  it("counts open registrations, open helper applications and open payments per event, upcoming first", async () => {
    const parent = await createUser();
    const helpers = await Promise.all([1, 2, 3, 4].map(() => createUser()));
    const soon = createEvent({ title: "Bald", inDays: 10, helpers: [[helpers[0].id, "pending"], [helpers[1].id, "pending"], [helpers[2].id, "accepted"], [helpers[3].id, "declined"]] });
    const later = createEvent({ title: "Später", inDays: 20 });
    const past = createEvent({ title: "Vorbei", inDays: -10 });
    register(soon.id, parent.id, { status: "open" }); // decision and payment open
    register(soon.id, parent.id, { status: "open", waiting: 1, amountCents: null }); // waiting list: nothing yet
    register(soon.id, parent.id, { status: "accepted" }); // payment open
    register(soon.id, parent.id, { status: "accepted", paid: true });
    register(soon.id, parent.id, { status: "rejected" });
    register(soon.id, parent.id, { status: "cancelled" });
    register(past.id, parent.id, { status: "open", amountCents: 0 }); // free: nothing to pay
    const cards = listAdminEvents();
    expect(cards.map((c) => [c.title, c.openRegistrations, c.openHelpers, c.openPayments, c.past])).toEqual([
      ["Bald", 1, 2, 2, false],
      ["Später", 0, 0, 0, false],
      ["Vorbei", 1, 0, 0, true],
    ]);
    expect(later.id).toBeGreaterThan(0);
    // The page links each card to its participant list.
    const { cookie } = await signedIn({ role: "admin" });
    const data = await body<{ events: { id: number; openRegistrations: number }[] }>(await run(loader, get("/gott", { cookie })));
    expect(data.events.map((e) => e.id)).toEqual([soon.id, later.id, past.id]);
    db.update(eventHelpers).set({ status: "accepted" }).run();
    expect(listAdminEvents()[0].openHelpers).toBe(0);
    // Past ones too by start date, the earliest first, ties by title (spec part 1 §4: event lists).
    createEvent({ title: "Lange vorbei", inDays: -40 });
    createEvent({ title: "Auch vorbei", inDays: -10 });
    expect(listAdminEvents().filter((c) => c.past).map((c) => c.title)).toEqual(["Lange vorbei", "Auch vorbei", "Vorbei"]);
  });
});

describe("Benutzerverwaltung", () => {
  it("lists admins and users by surname in German order, searches name and address, pages of 50", async () => {
    const { user: me, cookie } = await signedIn({ role: "admin", firstName: "Ada", lastName: "Zander" });
    await createUser({ lastName: "Özdemir", firstName: "Can" });
    await createUser({ lastName: "Abel", firstName: "Bea", email: "bea@verein.example" });
    await createUser({ lastName: "Peters", firstName: "Ole" });
    for (let i = 0; i < 55; i++) await createUser({ lastName: `Muster${String(i).padStart(2, "0")}`, firstName: "Max" });
    const first = listAdminUsers({ query: "", page: 1 });
    expect(first.admins.map((u) => u.id)).toEqual([me.id]);
    expect(first.total).toBe(58);
    expect(first.pages).toBe(2);
    expect(first.users).toHaveLength(50);
    expect(first.users[0].lastName).toBe("Abel");
    const second = listAdminUsers({ query: "", page: 2 });
    expect(second.users.map((u) => u.lastName)).toEqual(["Muster49", "Muster50", "Muster51", "Muster52", "Muster53", "Muster54", "Özdemir", "Peters"]);
    expect(listAdminUsers({ query: "VEREIN.example", page: 1 }).users.map((u) => u.lastName)).toEqual(["Abel"]);
    expect(listAdminUsers({ query: "max muster05", page: 1 }).users.map((u) => u.lastName)).toEqual(["Muster05"]);
    expect(listAdminUsers({ query: "100%_", page: 1 }).total).toBe(0);
    // Through the page, with the parameters of the address.
    const data = await body<{ users: { page: number; users: unknown[]; total: number } }>(await run(loader, get("/gott?tab=benutzer&q=muster&seite=2", { cookie })));
    expect(data.users).toMatchObject({ page: 2, total: 55 });
    expect(data.users.users).toHaveLength(5);
  });

  it("grants and revokes admin, with a protocol entry each", async () => {
    const { user: admin, cookie } = await signedIn({ role: "admin" });
    const target = await createUser({ firstName: "Greta", lastName: "Garbo" });
    const granted = await run(action, post("/gott?tab=benutzer", { intent: "grant-admin", userId: String(target.id), q: "gar", seite: "1" }, { cookie }));
    expect(granted.status).toBe(302);
    expect(granted.headers.get("Location")).toBe("/gott?tab=benutzer&q=gar");
    expect(fresh(target.id).role).toBe("admin");
    const revoked = await run(action, post("/gott", { intent: "revoke-admin", userId: String(target.id) }, { cookie }));
    expect(revoked.status).toBe(302);
    expect(fresh(target.id).role).toBe("user");
    const entries = db.select().from(auditLog).orderBy(auditLog.id).all();
    expect(entries.map((e) => [e.action, e.actorId, e.entityId, JSON.parse(e.details!).name])).toEqual([
      ["user.admin_granted", admin.id, target.id, "Greta Garbo"],
      ["user.admin_revoked", admin.id, target.id, "Greta Garbo"],
    ]);
  });

  it("refuses self-demotion and self-deactivation, and protects the last active admin", async () => {
    const { user: admin, cookie } = await signedIn({ role: "admin" });
    for (const intent of ["revoke-admin", "deactivate"]) {
      const response = await run(action, post("/gott", { intent, userId: String(admin.id) }, { cookie }));
      expect(response.status).toBe(403);
      expect((await body<{ alert: { message: string } }>(response)).alert.message).toMatch(/^Du kannst (dir|dich) /);
    }
    expect(fresh(admin.id)).toMatchObject({ role: "admin", banned: false });
    // Two admins demote each other at the same moment: the second finds the last active admin.
    const other = await createUser({ role: "admin" });
    const otherActor = { ...other, role: "admin" as const };
    expect(setAdminRole(admin, other.id, false)).toMatchObject({ ok: true });
    expect(setAdminRole(otherActor, admin.id, false)).toEqual({ ok: false, reason: "last_admin" });
    expect(setUserActive(otherActor, admin.id, false)).toEqual({ ok: false, reason: "last_admin" });
    expect(fresh(admin.id)).toMatchObject({ role: "admin", banned: false });
    // A deactivated admin does not count: demoting them leaves the active one.
    const third = await createUser({ role: "admin", banned: true });
    expect(setAdminRole(admin, third.id, false)).toMatchObject({ ok: true });
    expect(await run(action, post("/gott", { intent: "grant-admin", userId: "999999" }, { cookie }))).toHaveProperty("status", 404);
    expect(await run(action, post("/gott", { intent: "deactivate", userId: "abc" }, { cookie }))).toHaveProperty("status", 400);
  });

  it("deactivation ends every session at once and refuses the sign-in; reactivation does not revive old sessions", async () => {
    const { cookie } = await signedIn({ role: "admin" });
    const { user: target, cookie: targetCookie } = await signedIn({ email: "gesperrt@example.org", password: "Lagerfeuer-2026!" });
    const secondCookie = await sessionCookieFor(target.id);
    const parent = createEvent();
    register(parent.id, target.id, { status: "accepted" });
    const asTarget = (c: string) => new Request("http://localhost/", { headers: { Cookie: c } });
    expect((await getUser(asTarget(targetCookie)))?.id).toBe(target.id);

    const done = await run(action, post("/gott", { intent: "deactivate", userId: String(target.id) }, { cookie }));
    expect(done.status).toBe(302);
    expect(fresh(target.id).banned).toBe(true);
    expect(db.select().from(sessions).where(eq(sessions.userId, target.id)).all()).toEqual([]);
    expect(await getUser(asTarget(targetCookie))).toBeNull();
    const account = await run(accountLoader, get("/account", { cookie: secondCookie }));
    expect(account.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    // The account page an admin opens from the user bar says so.
    const state = async () =>
      (await body<{ state: { banned: boolean } }>(await run(adminAccountLoader, get(`/account/${target.id}`, { cookie, params: { id: String(target.id) } })))).state;
    expect(await state()).toEqual({ role: "user", banned: true });
    // Registrations stay.
    expect(db.select().from(registrations).where(eq(registrations.userId, target.id)).all()).toHaveLength(1);

    const signIn = () => run(loginAction, post("/login", { email: "gesperrt@example.org", password: "Lagerfeuer-2026!" }, { context: { clientIp: "10.9.9.9" } }));
    const refused = await signIn();
    expect(refused.status).toBe(403);
    const alert = (await body<{ alert: { message: string } }>(refused)).alert.message;
    expect(alert).toContain("deaktiviert");
    expect(alert).toMatch(/wenden Sie sich an/);

    const back = await run(action, post("/gott", { intent: "reactivate", userId: String(target.id) }, { cookie }));
    expect(back.status).toBe(302);
    expect(fresh(target.id).banned).toBe(false);
    expect(await getUser(asTarget(targetCookie))).toBeNull();
    expect(await getUser(asTarget(secondCookie))).toBeNull();
    expect((await signIn()).status).toBe(302);
    expect(await state()).toEqual({ role: "user", banned: false });
    expect(db.select({ action: auditLog.action }).from(auditLog).all().map((e) => e.action)).toEqual(["user.deactivated", "user.reactivated"]);
  });
});

describe("Protokoll", () => {
  it("lists newest first with who, filters by kind and pages", async () => {
    const { user: admin, cookie } = await signedIn({ role: "admin", firstName: "Ada", lastName: "Admin" });
    for (let i = 0; i < 60; i++) {
      recordAudit(db, { actorId: admin.id, action: "registration.rejected", entityType: "registration", entityId: i + 1, details: { reason: `Grund ${i}` } });
    }
    recordAudit(db, { actorId: admin.id, action: "event.deleted", entityType: "event", entityId: 7, details: { title: "Zeltlager" } });
    type Page = {
      protocol: { entries: { action: string; actor: string; person: string | null; event: string | null; details: { reason?: string; title?: string } }[]; total: number; pages: number; page: number };
    };
    const all = await body<Page>(await run(loader, get("/gott?tab=protokoll", { cookie })));
    expect(all.protocol).toMatchObject({ total: 61, pages: 2, page: 1 });
    expect(all.protocol.entries[0]).toMatchObject({ action: "event.deleted", actor: "Ada Admin", details: { title: "Zeltlager" } });
    expect(all.protocol.entries[1].details.reason).toBe("Grund 59");
    const events = await body<Page>(await run(loader, get("/gott?tab=protokoll&art=event", { cookie })));
    expect(events.protocol.entries.map((e) => e.action)).toEqual(["event.deleted"]);
    const second = await body<Page>(await run(loader, get("/gott?tab=protokoll&art=registration&seite=2", { cookie })));
    expect(second.protocol.entries.map((e) => e.details.reason)).toEqual(Array.from({ length: 10 }, (_, i) => `Grund ${9 - i}`));
    // An unknown kind or page falls back to everything, page 1.
    const odd = await body<Page>(await run(loader, get("/gott?tab=protokoll&art=nix&seite=-3", { cookie })));
    expect(odd.protocol).toMatchObject({ total: 61, page: 1 });
  });

  it("keeps who deleted which event", async () => {
    const { user: admin, cookie } = await signedIn({ role: "admin" });
    const camp = createEvent({ title: "Herbstlager" });
    const deleted = await run(eventAction, post(`/freizeit/${camp.id}`, { intent: "delete" }, { cookie, params: { id: String(camp.id) } }));
    expect(deleted.status).toBe(302);
    const [entry] = db.select().from(auditLog).all();
    expect(entry).toMatchObject({ action: "event.deleted", actorId: admin.id, entityType: "event", entityId: camp.id });
    expect(JSON.parse(entry.details!)).toEqual({ title: "Herbstlager", dateFrom: camp.dateFrom, told: 0 });
  });

  it("names the child, the helper and the event an entry is about, while they exist", async () => {
    const { user: admin, cookie } = await signedIn({ role: "admin" });
    const parent = await createUser();
    const helper = await createUser({ firstName: "Hanna", lastName: "Helfer" });
    const camp = createEvent({ title: "Pfingstlager", helpers: [[helper.id, "accepted"]] });
    register(camp.id, parent.id, { status: "rejected" });
    const registration = db.select().from(registrations).get()!;
    const child = db.select().from(participants).get()!;
    recordAudit(db, { actorId: admin.id, action: "registration.rejected", entityType: "registration", entityId: registration.id, details: { eventId: camp.id, reason: "Zu jung" } });
    recordAudit(db, { actorId: admin.id, action: "helper.accepted", entityType: "helper", entityId: helper.id, details: { eventId: camp.id, event: "Pfingstlager" } });
    recordAudit(db, { actorId: null, action: "retention.run", entityType: "system", details: { healthData: 2, comments: 0, sepaMandates: 1, registrations: 0 } });
    // An entry about the event itself (leaders' review: "Veranstaltung Nr. 1" where others named it).
    recordAudit(db, { actorId: admin.id, action: "event.place_added", entityType: "event", entityId: camp.id, details: { from: 1, to: 2, registrationId: registration.id } });
    const page = async () =>
      (await body<{ protocol: { entries: { action: string; person: string | null; event: string | null; actor: string | null }[] } }>(await run(loader, get("/gott?tab=protokoll", { cookie })))).protocol.entries;
    expect((await page()).map((e) => [e.action, e.person, e.event])).toEqual([
      ["event.place_added", null, "Pfingstlager"],
      ["retention.run", null, null],
      ["helper.accepted", "Hanna Helfer", "Pfingstlager"],
      ["registration.rejected", `${child.firstName} ${child.lastName}`, "Pfingstlager"],
    ]);
    db.delete(registrations).run();
    expect((await page())[3]).toMatchObject({ person: null, event: "Pfingstlager" });
  });
});

describe("Protokoll: namesakes told apart", () => {
  it("links the person who acted and the account an entry is about, while each exists, under its current name", async () => {
    const { user: admin, cookie } = await signedIn({ role: "admin", firstName: "Ada", lastName: "Admin" });
    const first = await createUser({ firstName: "Max", lastName: "Muster" });
    const second = await createUser({ firstName: "Max", lastName: "Muster" });
    const helper = await createUser({ firstName: "Hanna", lastName: "Helfer" });
    const camp = createEvent({ title: "Pfingstlager", helpers: [[helper.id, "pending"]] });
    setUserActive(admin, second.id, false);
    expect(decideHelper(camp.id, helper.id, "accept", admin)).toMatchObject({ ok: true });
    db.update(users).set({ lastName: "Neumann" }).where(eq(users.id, first.id)).run();
    recordAudit(db, { actorId: admin.id, action: "user.reactivated", entityType: "user", entityId: first.id, details: { name: "Max Muster" } });
    type Page = { protocol: { entries: { action: string; actorId: number | null; accountId: number | null; person: string | null }[] } };
    const entries = async () => (await body<Page>(await run(loader, get("/gott?tab=protokoll", { cookie })))).protocol.entries;
    expect((await entries()).map((e) => [e.action, e.actorId, e.accountId, e.person])).toEqual([
      ["user.reactivated", admin.id, first.id, "Max Neumann"],
      ["helper.accepted", admin.id, helper.id, "Hanna Helfer"],
      ["user.deactivated", admin.id, second.id, "Max Muster"],
    ]);
    const html = renderToStaticMarkup(createElement(AdminProtocol, { data: { entries: await entries(), total: 3, page: 1, pages: 1 } as never, kind: null }));
    expect(html).toContain(`<a href="/account/${admin.id}">Ada Admin</a>`);
    expect(html).toContain(`<a href="/account/${second.id}">Max Muster</a>`);
    expect(html).toContain(`<a href="/account/${helper.id}">Hanna Helfer</a> · Pfingstlager`);
    // A helper decision keeps the helper's name, as an account entry does.
    const decided = db.select().from(auditLog).where(eq(auditLog.action, "helper.accepted")).all();
    expect(decided.map((e) => JSON.parse(e.details!).name)).toEqual(["Hanna Helfer"]);
    // Once deleted, the account is no link; the entry keeps the name it had.
    db.delete(users).where(eq(users.id, second.id)).run();
    const gone = (await entries()).find((e) => e.action === "user.deactivated")!;
    expect(gone).toMatchObject({ accountId: null, person: null });
    expect(renderToStaticMarkup(createElement(AdminProtocol, { data: { entries: [gone], total: 1, page: 1, pages: 1 } as never, kind: null }))).toContain(
      "Konto deaktiviert<span class=\"admin-protocol-subject\">: Max Muster</span>",
    );
  });
});

describe("the step before giving or taking admin rights or deactivating", () => {
  it("is shown for a person on the list whose state allows it, never for oneself", async () => {
    const admin = await createUser({ role: "admin", firstName: "Anna", lastName: "Admin" });
    const other = await createUser({ role: "admin", firstName: "Otto", lastName: "Oberst" });
    const parent = await createUser({ firstName: "Paula", lastName: "Parent" });
    const cookie = await sessionCookieFor(admin.id);
    const stepOf = async (query: string) => (await body<{ step: unknown }>(await run(loader, get(`/gott?tab=benutzer&${query}`, { cookie })))).step;
    expect(await stepOf(`frage=revoke-admin&nutzer=${other.id}`)).toEqual({ intent: "revoke-admin", userId: other.id, name: "Otto Oberst", inactive: false });
    expect(await stepOf(`frage=deactivate&nutzer=${parent.id}`)).toEqual({ intent: "deactivate", userId: parent.id, name: "Paula Parent", inactive: false });
    expect(await stepOf(`frage=revoke-admin&nutzer=${parent.id}`)).toBeNull();
    expect(await stepOf(`frage=deactivate&nutzer=${admin.id}`)).toBeNull();
    // Giving admin rights is asked too: all events, every family's data, with one tap otherwise.
    expect(await stepOf(`frage=grant-admin&nutzer=${parent.id}`)).toEqual({ intent: "grant-admin", userId: parent.id, name: "Paula Parent", inactive: false });
    expect(await stepOf(`frage=grant-admin&nutzer=${other.id}`)).toBeNull();
    setUserActive(admin, parent.id, false);
    expect(await stepOf(`frage=deactivate&nutzer=${parent.id}`)).toBeNull();
    // A deactivated account can be given the rights ahead; the step says they wait for reactivation.
    expect(await stepOf(`frage=grant-admin&nutzer=${parent.id}`)).toEqual({ intent: "grant-admin", userId: parent.id, name: "Paula Parent", inactive: true });
  });

  it("says after giving admin rights to a deactivated account that they count once it is reactivated", async () => {
    const admin = await createUser({ role: "admin" });
    const parent = await createUser({ firstName: "Paula", lastName: "Parent" });
    setUserActive(admin, parent.id, false);
    const granted = await run(action, post("/gott?tab=benutzer", { intent: "grant-admin", userId: String(parent.id) }, { cookie: await sessionCookieFor(admin.id) }));
    expect(granted.status).toBe(302);
    const flash = await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(granted, "lf_flash")! } }));
    expect(flash?.flash).toMatchObject({
      title: "Adminrechte gegeben",
      message: "Paula Parent ist jetzt Admin. Das Konto ist deaktiviert: Anmelden kann sich Paula Parent erst, wenn es reaktiviert ist.",
    });
  });
});
