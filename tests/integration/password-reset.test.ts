import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { userTokens, users } from "../../db/schema";
import { action as forgotAction, loader as forgotLoader } from "~/routes/forgot";
import { action as resendAction } from "~/routes/konto-bestaetigen._index";
import { MAX_ADDRESS_CHECKS_PER_CLIENT } from "~/models/address-checks.server";
import { action as resetAction, loader as resetLoader } from "~/routes/resetPassword.$token";
import { db } from "~/services/db.server";
import { verifyPassword } from "~/services/password.server";
import { getUser } from "~/services/session.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, get, linkIn, outbox, post, run } from "../support/remix";

beforeEach(() => resetDatabase());

const NEW = "Neues-Passwort-2026!";

async function requestLink(email = "eltern@example.org") {
  const response = await run(forgotAction, post("/forgot", { email }));
  expect(response.status).toBe(302);
  return linkIn(outbox()[0].text); // the newest
}

describe("forgot password", () => {
  it("mails a reset link to an account, and answers the same for an unknown address", async () => {
    await createUser({ email: "eltern@example.org" });
    const known = await run(forgotAction, post("/forgot", { email: "Eltern@example.org" }));
    const mails = outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(["eltern@example.org"]);
    expect(mails[0].subject).toBe("Passwort zurücksetzen");
    expect(mails[0].text).not.toMatch(/\b(du|dich|dein|deine)\b/i);
    expect(linkIn(mails[0].text)).toMatch(/^\/resetPassword\/[\w-]{43}$/);

    // Post/redirect/get: reloading the answer sends no second mail.
    expect(known.status).toBe(302);
    expect(known.headers.get("Location")).toBe("/forgot?gesendet=1");
    const unknown = await run(forgotAction, post("/forgot", { email: "niemand@example.org" }));
    expect(unknown.status).toBe(known.status);
    expect(unknown.headers.get("Location")).toBe(known.headers.get("Location"));
    expect(outbox()).toHaveLength(1);
    expect(await body(await run(forgotLoader, get("/forgot?gesendet=1")))).toEqual({ sent: true });
    expect(await body(await run(forgotLoader, get("/forgot")))).toEqual({ sent: false });
  });

  it("keeps an earlier link working when another is asked for: no one ends a person's link by asking again", async () => {
    await createUser({ email: "eltern@example.org" });
    const first = await requestLink();
    const second = await requestLink();
    expect(second).not.toBe(first);
    const params = { token: first.split("/").pop()! };
    expect((await run(resetAction, post(first, { password: NEW, confirmPassword: NEW }, { params }))).status).toBe(302);
    // The reset ends the other one.
    const other = { token: second.split("/").pop()! };
    expect((await run(resetAction, post(second, { password: NEW, confirmPassword: NEW }, { params: other }))).status).toBe(410);
  });

  it("mails at most five links an hour to one account; a sixth request mails nothing and answers the same", async () => {
    await createUser({ email: "eltern@example.org" });
    for (let i = 0; i < 5; i++) await requestLink();
    expect(outbox()).toHaveLength(5);
    const sixth = await run(forgotAction, post("/forgot", { email: "eltern@example.org" }));
    expect(sixth.status).toBe(302);
    expect(sixth.headers.get("Location")).toBe("/forgot?gesendet=1");
    expect(outbox()).toHaveLength(5);
    // An hour later there are links again.
    db.update(userTokens).set({ createdAt: new Date(Date.now() - 3600_000 - 1000) }).run();
    await requestLink();
    expect(outbox()).toHaveLength(6);
  });

  // Operations review: /forgot and the confirmation link's resend had no limit per client, so
  // anyone could test addresses by their answer time and mail every account five times an hour.
  it(`allows ${MAX_ADDRESS_CHECKS_PER_CLIENT} link requests per client in 15 minutes, with sign-ups; then a German 429, and nothing is mailed`, async () => {
    await createUser({ email: "eltern@example.org" });
    const from = (ip: string) => ({ context: { clientIp: ip } });
    for (let i = 0; i < MAX_ADDRESS_CHECKS_PER_CLIENT; i++) {
      const answer = await run(i % 2 ? forgotAction : resendAction, post(i % 2 ? "/forgot" : "/konto-bestaetigen", { email: `niemand${i}@example.org` }, from("10.6.0.1")));
      expect(answer.status).toBe(302);
    }
    for (const [action, path] of [[forgotAction, "/forgot"], [resendAction, "/konto-bestaetigen"]] as const) {
      const refused = await run(action, post(path, { email: "eltern@example.org" }, from("10.6.0.1")));
      expect(refused.status).toBe(429);
      expect((await body<{ alert: { message: string } }>(refused)).alert.message).toBe(
        "Zu viele Anfragen von diesem Anschluss. Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.",
      );
    }
    expect(outbox()).toHaveLength(0);
    // Another client is not held up.
    expect((await run(forgotAction, post("/forgot", { email: "eltern@example.org" }, from("10.6.0.2")))).status).toBe(302);
    expect(outbox()).toHaveLength(1);
  });

  it("refuses an invalid address with the spec's message", async () => {
    const response = await run(forgotAction, post("/forgot", { email: "eltern@example" }));
    expect(response.status).toBe(400);
    expect((await body<{ result: { error: Record<string, string[]> } }>(response)).result.error.email).toEqual([
      "Bitte geben Sie eine gültige eMail-Adresse ein",
    ]);
  });
});

describe("reset password", () => {
  it("sets the new password once, confirms the address and ends every session", async () => {
    const user = await createUser({ email: "eltern@example.org", confirmed: false });
    const cookie = await sessionCookieFor(user.id);
    const link = await requestLink();
    const token = link.split("/").pop()!;
    expect(await body(await run(resetLoader, get(link, { params: { token } })))).toEqual({ usable: true });

    const response = await run(resetAction, post(link, { password: NEW, confirmPassword: NEW }, { params: { token } }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    const after = db.select().from(users).where(eq(users.id, user.id)).get()!;
    expect(await verifyPassword(after.passwordHash, NEW)).toBe(true);
    expect(after.emailConfirmedAt).not.toBeNull();
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toBeNull();

    const again = await run(resetAction, post(link, { password: "Noch-Eins-2026!", confirmPassword: "Noch-Eins-2026!" }, { params: { token } }));
    expect(again.status).toBe(410);
    expect((await body<{ alert: { title: string } }>(again)).alert.title).toBe("Ungültiger Reset-Token.");
    expect(await verifyPassword(db.select().from(users).where(eq(users.id, user.id)).get()!.passwordHash, NEW)).toBe(true);
  });

  it("ends a reset link requested before a password change on the account page", async () => {
    const { changePassword } = await import("~/models/user.server");
    const user = await createUser({ email: "eltern@example.org", password: "Alt-Passwort-1" });
    const link = await requestLink();
    expect(await changePassword(user.id, "Alt-Passwort-1", "Geaendert-2026!", null, { clientKey: "10.0.0.1" })).toBe("changed");
    const params = { token: link.split("/").pop()! };
    expect(await body(await run(resetLoader, get(link, { params })))).toEqual({ usable: false });
    const response = await run(resetAction, post(link, { password: NEW, confirmPassword: NEW }, { params }));
    expect(response.status).toBe(410);
    expect(await verifyPassword(db.select().from(users).where(eq(users.id, user.id)).get()!.passwordHash, "Geaendert-2026!")).toBe(true);
  });

  it("ends every other reset link of the account with a reset", async () => {
    const user = await createUser({ email: "eltern@example.org" });
    const first = await requestLink();
    // A second link that was issued without the first being replaced (as by an older version).
    const { issueToken } = await import("~/models/user-token.server");
    const second = db.transaction((tx) => {
      const token = issueToken(tx, user.id, "reset_password");
      db.update(userTokens).set({ usedAt: null }).where(eq(userTokens.userId, user.id)).run();
      return token;
    });
    expect((await run(resetAction, post(first, { password: NEW, confirmPassword: NEW }, { params: { token: first.split("/").pop()! } }))).status).toBe(302);
    const again = await run(resetAction, post(`/resetPassword/${second}`, { password: "Noch-Eins-2026!", confirmPassword: "Noch-Eins-2026!" }, { params: { token: second } }));
    expect(again.status).toBe(410);
  });

  it("refuses a link older than an hour", async () => {
    await createUser({ email: "eltern@example.org" });
    const link = await requestLink();
    db.update(userTokens).set({ expiresAt: new Date(Date.now() - 1) }).run();
    const response = await run(resetAction, post(link, { password: NEW, confirmPassword: NEW }, { params: { token: link.split("/").pop()! } }));
    expect(response.status).toBe(410);
  });

  it("enforces the rules and the repeat on the server", async () => {
    await createUser({ email: "eltern@example.org" });
    const link = await requestLink();
    const params = { token: link.split("/").pop()! };
    const weak = await run(resetAction, post(link, { password: "kurz1!", confirmPassword: "kurz1!" }, { params }));
    expect(weak.status).toBe(400);
    const weakAnswer = await body<{ check: { minLength: boolean } }>(weak);
    expect(weakAnswer.check.minLength).toBe(false);
    const mismatch = await run(resetAction, post(link, { password: NEW, confirmPassword: `${NEW}x` }, { params }));
    expect(mismatch.status).toBe(400);
    // The typed passwords do not travel back in the answer (a page a shared computer keeps).
    expect(JSON.stringify(weakAnswer)).not.toContain("kurz1!");
    const mismatchAnswer = await body<{ result: { error: Record<string, string[]> } }>(mismatch);
    expect(JSON.stringify(mismatchAnswer)).not.toContain(NEW);
    expect(mismatchAnswer.result.error.confirmPassword).toEqual([
      "Die Passwörter stimmen nicht überein!",
    ]);
    // The link still works after refused tries.
    expect((await run(resetAction, post(link, { password: NEW, confirmPassword: NEW }, { params }))).status).toBe(302);
  });

  it("answers an unknown token with the spec's text", async () => {
    const response = await run(resetAction, post("/resetPassword/erfunden", { password: NEW, confirmPassword: NEW }, { params: { token: "erfunden" } }));
    expect(response.status).toBe(410);
  });
});
