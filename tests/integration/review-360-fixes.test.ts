// Smaller defects found by the fresh-eyes review at 360 px: a person's own phone for the camp
// sheet, no helper application from an event's lead person, a sibling discount text needs its amount.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { eventHelpers, events, users } from "../../db/schema";
import { action as accountAction, loader as accountLoader } from "~/routes/account._index";
import { action as createAction } from "~/routes/freizeit.create";
import { action as detailAction, loader as detailLoader } from "~/routes/freizeit.$id";
import { db } from "~/services/db.server";
import { createEvent, multipartPost, validEventFields } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

const phoneOf = (id: number) => db.select({ phone: users.phone }).from(users).where(eq(users.id, id)).get()!.phone;

describe("own phone for the camp sheet (/account)", () => {
  it("a helper enters, changes and clears their own phone; the page shows it", async () => {
    const helper = await createUser();
    const cookie = await sessionCookieFor(helper.id);
    const saved = await run(accountAction, post("/account", { intent: "phone", phone: " 0170 1234567 " }, { cookie }));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/account");
    expect(phoneOf(helper.id)).toBe("0170 1234567");
    const page = await body<{ phone: string | null }>(await run(accountLoader, get("/account", { cookie })));
    expect(page.phone).toBe("0170 1234567");
    expect((await run(accountAction, post("/account", { intent: "phone", phone: "+49 40 123" }, { cookie }))).status).toBe(302);
    expect(phoneOf(helper.id)).toBe("+49 40 123");
    expect((await run(accountAction, post("/account", { intent: "phone", phone: "" }, { cookie }))).status).toBe(302);
    expect(phoneOf(helper.id)).toBeNull();
  });

  // The texts' audit: "abc" was saved here, while the helper checks refused it for the same
  // number (users.phone): one rule for it wherever it is typed.
  it("refuses what is no phone number, as the helper checks do, and keeps the old number", async () => {
    const helper = await createUser();
    db.update(users).set({ phone: "040 1" }).where(eq(users.id, helper.id)).run();
    const cookie = await sessionCookieFor(helper.id);
    for (const phone of ["abc", "0170 123 abends", "12", "---", "(/)", "+1-2"]) {
      const refused = await run(accountAction, post("/account", { intent: "phone", phone }, { cookie }));
      expect(refused.status, phone).toBe(400);
      const answer = await body<{ result: { error?: Record<string, string[]> } }>(refused);
      expect(answer.result.error?.phone).toEqual(["Bitte gib eine Telefonnummer aus Ziffern an (höchstens 50 Zeichen)."]);
    }
    expect(phoneOf(helper.id)).toBe("040 1");
    for (const phone of ["(040) 123 456", "0170/1234567", "+49 170-1234567"]) {
      expect((await run(accountAction, post("/account", { intent: "phone", phone }, { cookie }))).status, phone).toBe(302);
      expect(phoneOf(helper.id)).toBe(phone);
    }
  });

  it("refuses more than 50 characters with the message at the field and keeps the old number", async () => {
    const helper = await createUser();
    db.update(users).set({ phone: "040 1" }).where(eq(users.id, helper.id)).run();
    const cookie = await sessionCookieFor(helper.id);
    const refused = await run(accountAction, post("/account", { intent: "phone", phone: "1".repeat(51) }, { cookie }));
    expect(refused.status).toBe(400);
    const answer = await body<{ intent: string; alert: { title: string }; result: { error?: Record<string, string[]> } }>(refused);
    expect(answer.intent).toBe("phone");
    expect(answer.alert.title).toBe("Fehler beim Ändern");
    expect(answer.result.error?.phone).toEqual(["Höchstens 50 Zeichen"]);
    expect(phoneOf(helper.id)).toBe("040 1");
  });
});

describe("lead persons do not apply as helpers of their own event", () => {
  it("the page offers no application and the action refuses it", async () => {
    const lead = await createUser();
    const cookie = await sessionCookieFor(lead.id);
    const camp = createEvent({ ownerIds: [lead.id] });
    const params = { id: String(camp.id) };
    const page = await body<{ event: { isOwner: boolean; mayApplyAsHelper: boolean } }>(await run(detailLoader, get(`/freizeit/${camp.id}`, { cookie, params })));
    expect(page.event.mayApplyAsHelper).toBe(false);
    const refused = await run(detailAction, post(`/freizeit/${camp.id}`, { intent: "apply-helper" }, { cookie, params }));
    expect(refused.status).toBe(409);
    expect((await body<{ error: string }>(refused)).error).toBe("Du leitest diese Veranstaltung – als Leitung bist du schon dabei.");
    expect(db.select().from(eventHelpers).all()).toHaveLength(0);

    const other = await createUser();
    const otherCookie = await sessionCookieFor(other.id);
    const otherPage = await body<{ event: { mayApplyAsHelper: boolean } }>(await run(detailLoader, get(`/freizeit/${camp.id}`, { cookie: otherCookie, params })));
    expect(otherPage.event.mayApplyAsHelper).toBe(true);
  });
});

describe("sibling discount text needs its amount", () => {
  it("answers 400 with a message at the amount field when the text is filled and no amount given", async () => {
    const cookie = await sessionCookieFor((await createUser({ role: "admin" })).id);
    const create = (fields: Record<string, string>) => run(createAction, multipartPost("/freizeit/create", validEventFields(fields), {}, cookie));
    for (const amount of ["", "0", "0,00"]) {
      const refused = await create({ siblingDiscount: "10 % Rabatt", siblingDiscountAmount: amount, price: "100" });
      expect(refused.status).toBe(400);
      const data = await body<{ result: { error: Record<string, string[]> } }>(refused);
      expect(data.result.error.siblingDiscountAmount).toEqual([
        "Bitte geben Sie den Rabatt in € je weiteres Kind an – nur dieser Betrag wird abgezogen. Oder lassen Sie das Feld „Geschwisterrabatt“ leer.",
      ]);
    }
    expect(db.select().from(events).all()).toEqual([]);
    expect((await create({ siblingDiscount: "10 € für jedes weitere Kind", siblingDiscountAmount: "10", price: "100" })).status).toBe(302);
    // A free event has nothing to take off; its text alone is fine.
    expect((await create({ title: "Frei", siblingDiscount: "Geschwister willkommen", price: "0" })).status).toBe(302);
    expect(db.select().from(events).all()).toHaveLength(2);
  });
});
