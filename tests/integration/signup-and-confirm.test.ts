import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { userTokens, users } from "../../db/schema";
import { action as resendAction } from "~/routes/konto-bestaetigen._index";
import { action as confirmAction, loader as confirmLoader } from "~/routes/konto-bestaetigen.$token";
import { action as signupAction, loader as signupLoader } from "~/routes/signup";
import { db } from "~/services/db.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { action as accountAction } from "~/routes/account._index";
import { MAX_ADDRESS_CHECKS_PER_CLIENT } from "~/models/address-checks.server";
import { body, cookieFrom, linkIn, outbox, post, run, get } from "../support/remix";

beforeEach(() => resetDatabase());

const valid = {
  firstName: "Erika",
  lastName: "Mustermann",
  email: "Erika.Mustermann@Example.org",
  password: "Zeltlager-2026!",
  passwordRepeat: "Zeltlager-2026!",
};

function userByEmail(email: string) {
  return db.select().from(users).where(eq(users.email, email)).get();
}

type SignupAnswer = {
  alert: { title: string; message: string } | null;
  values: Record<string, string>;
  check: Record<string, boolean> | null;
  done: { email: string } | null;
  result: { initialValue?: Record<string, unknown>; error?: Record<string, string[]> } | null;
};

describe("sign-up", () => {
  it("keeps no control characters or direction overrides in a name (attack probe: 'Hallo Eva=00=07', a reversed name in lists)", async () => {
    const response = await run(signupAction, post("/signup", { ...valid, firstName: "Eva\u0000\u0007", lastName: "\u202eeluhcs\u2066" }));
    expect(response.status).toBe(302);
    expect(userByEmail("erika.mustermann@example.org")).toMatchObject({ firstName: "Eva", lastName: "eluhcs" });
    expect(outbox()[0].text).toContain("Eva,");
    expect(outbox()[0].text).not.toMatch(/[\u0000-\u0008\u202e]/);
  });

  it("creates an unconfirmed account with role 'user' and mails the confirmation link", async () => {
    const response = await run(signupAction, post("/signup", valid));
    // Post/redirect/get: reloading the thanks must not send the form again (it would say the
    // address is taken).
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/signup?gesendet");
    const cookie = cookieFrom(response, "lf_signup")!;
    expect(cookie).toBeDefined();
    const thanks = await run(signupLoader, get("/signup?gesendet", { cookie }));
    // The page names the address: no cache keeps it (attack probe).
    expect(thanks.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await body(thanks)).toEqual({ done: { email: "erika.mustermann@example.org" }, formKey: null });
    // Another browser (no cookie) still gets the thanks, without the address; the form without ?gesendet.
    expect(await body(await run(signupLoader, get("/signup?gesendet")))).toEqual({ done: { email: null }, formKey: null });
    expect(await body(await run(signupLoader, get("/signup", { cookie })))).toMatchObject({ done: null });
    const user = userByEmail("erika.mustermann@example.org")!;
    expect(user).toMatchObject({ firstName: "Erika", lastName: "Mustermann", role: "user", emailConfirmedAt: null, banned: false });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const [mail] = outbox();
    expect(mail.to).toEqual(["erika.mustermann@example.org"]);
    expect(mail.subject).toBe("Bitte bestätigen Sie Ihre E-Mail-Adresse");
    expect(linkIn(mail.text)).toMatch(/^\/konto-bestaetigen\/[\w-]{43}$/);
    expect(mail.text).toContain("24 Stunden");
    // 'Sie', as the sign-up page that sends it (DECISIONS: form of address).
    expect(mail.text).not.toMatch(/\b(du|dich|dein|deine)\b/i);
  });

  it("refuses an address already in use, in any letter case, with the 409 text and creates nothing", async () => {
    await createUser({ email: "familie.schulz@example.org" });
    const usersBefore = db.select().from(users).all().length;
    const mailsBefore = outbox().length;
    const response = await run(signupAction, post("/signup", { ...valid, email: "Familie.SCHULZ@example.ORG" }));
    expect(response.status).toBe(409);
    const answer = await body<SignupAnswer & { result: { error?: Record<string, string[]> }; taken?: boolean }>(response);
    expect(answer.alert).toEqual({
      title: "Registrierung fehlgeschlagen",
      message: "Diese Email wird bereits verwendet. Bitte nutzen Sie eine andere Email-Adresse",
    });
    // A parent's review: the message stood above the form only, and nothing led to the login.
    expect(answer.result.error?.email).toEqual(["Diese E-Mail-Adresse hat schon ein Konto."]);
    expect(answer.taken).toBe(true);
    expect(db.select().from(users).all()).toHaveLength(usersBefore);
    expect(outbox()).toHaveLength(mailsBefore);
  });

  it("a form sent twice (a double tap while the password is hashed) signs up once and thanks both times", async () => {
    const { formKey } = await body<{ formKey: string }>(await run(signupLoader, get("/signup")));
    expect(formKey).toMatch(/^[\w-]{16,64}$/);
    const answers = await Promise.all([1, 2].map(() => run(signupAction, post("/signup", { ...valid, submissionKey: formKey }))));
    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/signup?gesendet");
      expect(await body(await run(signupLoader, get("/signup?gesendet", { cookie: cookieFrom(answer, "lf_signup")! })))).toEqual({
        done: { email: "erika.mustermann@example.org" },
        formKey: null,
      });
    }
    expect(db.select().from(users).all()).toHaveLength(1);
    expect(outbox()).toHaveLength(1);
    // Another form (a new key), or none, for the same address is refused as before.
    for (const other of [{ submissionKey: "ein-anderer-schluessel-123" }, {} as Record<string, string>]) {
      expect((await run(signupAction, post("/signup", { ...valid, ...other }))).status).toBe(409);
    }
    expect((await body<{ formKey: string }>(await run(signupLoader, get("/signup")))).formKey).not.toBe(formKey);
  });

  it(`allows ${MAX_ADDRESS_CHECKS_PER_CLIENT} sign-ups and address changes per client in 15 minutes, also sent at once`, async () => {
    // Found by an attack probe: sign-ups were unlimited, so anyone could test which addresses
    // have an account, make the server hash passwords without end and have it mail strangers.
    await createUser({ email: "vergeben@example.org" });
    const from = (ip: string) => ({ context: { clientIp: ip } });
    const answers = await Promise.all(
      Array.from({ length: MAX_ADDRESS_CHECKS_PER_CLIENT + 5 }, (_, i) =>
        run(signupAction, post("/signup", { ...valid, email: i % 2 ? "vergeben@example.org" : `neu${i}@example.org` }, from("10.5.0.1"))),
      ),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(5);
    expect((await body<SignupAnswer>(refused[0])).alert).toEqual({
      title: "Registrierung fehlgeschlagen",
      message: "Zu viele Registrierungen von diesem Anschluss. Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.",
    });
    // Another client is not affected; the same client's address change shares the count.
    expect((await run(signupAction, post("/signup", { ...valid, email: "andere@example.org" }, from("10.5.0.2")))).status).toBe(302);
    const user = await createUser({ email: "eltern@example.org" });
    const change = await run(accountAction, post("/account", { intent: "email", email: "vergeben@example.org" }, { cookie: await sessionCookieFor(user.id), ...from("10.5.0.1") }));
    expect(change.status).toBe(429);
    expect((await body<{ result: { error?: Record<string, string[]> } }>(change)).result.error?.email).toEqual([
      "Zu viele Versuche. Bitte warte 15 Minuten und versuche es dann erneut.",
    ]);
  });

  it("answers an invalid address with the spec's toast and clears address and passwords", async () => {
    const response = await run(signupAction, post("/signup", { ...valid, email: "erika@example" }));
    expect(response.status).toBe(400);
    const answer = await body<SignupAnswer>(response);
    expect(answer.alert).toEqual({ title: "Ungültige E-Mail-Adresse", message: "Bitte überprüfen Sie Ihre Eingabe." });
    expect(answer.values).toEqual({ firstName: "Erika", lastName: "Mustermann", email: "" });
    expect(answer.check).toBeNull();
    expect(JSON.stringify(answer.result)).not.toContain("Zeltlager-2026!");
    expect(JSON.stringify(answer.result)).not.toContain("erika@example");
    expect(userByEmail("erika@example")).toBeUndefined();
  });

  // Part 1 sets sign-up no length for the address, and a real one can be long (a parish's
  // domain): it was refused as "Ungültige E-Mail-Adresse" above 50 characters (spec review).
  it("takes a valid address of up to 254 characters, as sign-in and the password reset do", async () => {
    const long = "vorname.nachname-doppelname@kirchengemeinde-musterstadt.de";
    expect(long.length).toBe(58);
    const response = await run(signupAction, post("/signup", { ...valid, email: long }));
    expect(response.status).toBe(302);
    expect(userByEmail(long)).toBeDefined();
    const tooLong = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(59)}.de`;
    expect(tooLong.length).toBe(255);
    expect((await run(signupAction, post("/signup", { ...valid, email: tooLong }))).status).toBe(400);
  });

  it("answers different passwords with the mismatch toast", async () => {
    const response = await run(signupAction, post("/signup", { ...valid, passwordRepeat: "Zeltlager-2027!" }));
    expect(response.status).toBe(400);
    const answer = await body<SignupAnswer>(response);
    expect(answer.alert).toEqual({ title: "Passwort stimmt nicht überein", message: "Bitte überprüfen Sie Ihre Eingabe." });
    // Both fields come back empty: no ticks of a password that is gone (screens' review), only
    // the repeat's rule marked as not met (review).
    expect(answer.check).toEqual({ matches: false });
    expect(answer.result?.error?.passwordRepeat).toEqual(["Passwort stimmt nicht überein"]);
  });

  it("a missing or wrong field does not hide the mismatch at 'Passwort wiederholen' (forms' audit)", async () => {
    // The passwords come back empty, so a parent who mistyped learnt it only by mistyping again.
    const noAddress = await body<SignupAnswer>(await run(signupAction, post("/signup", { ...valid, email: "", passwordRepeat: "Zeltlager-2027!" })));
    expect(noAddress.alert?.title).toBe("Ungültige E-Mail-Adresse");
    expect(noAddress.result?.error).toEqual({ email: ["Ungültige E-Mail-Adresse"], passwordRepeat: ["Passwort stimmt nicht überein"] });
    const noName = await body<SignupAnswer>(await run(signupAction, post("/signup", { ...valid, lastName: "", passwordRepeat: "Zeltlager-2027!" })));
    expect(noName.alert?.title).toBe("Passwort stimmt nicht überein");
    expect(noName.result?.error).toEqual({ lastName: ["Bitte geben Sie Ihren Nachnamen an."], passwordRepeat: ["Passwort stimmt nicht überein"] });
  });

  it("a repeat left empty is not a mismatch, and a good password gone from the form leaves no ticks", async () => {
    const response = await run(signupAction, post("/signup", { ...valid, firstName: "", passwordRepeat: "" }));
    expect(response.status).toBe(400);
    const answer = await body<SignupAnswer>(response);
    expect(answer.alert).toBeNull();
    expect(answer.check).toBeNull();
    expect(answer.result?.error?.passwordRepeat).toEqual(["Bitte wiederholen Sie das Passwort."]);
  });

  it("enforces the password rules on the server and answers with the checklist", async () => {
    const response = await run(signupAction, post("/signup", { ...valid, password: "zeltlager", passwordRepeat: "zeltlager" }));
    expect(response.status).toBe(400);
    const answer = await body<SignupAnswer>(response);
    expect(answer.check).toEqual({ minLength: true, upperAndLower: false, digit: false, special: false, maxLength: true, matches: true });
    expect(userByEmail("erika.mustermann@example.org")).toBeUndefined();
  });

  it("refuses names over 50 characters and missing names", async () => {
    const tooLong = await run(signupAction, post("/signup", { ...valid, firstName: "E".repeat(51) }));
    expect(tooLong.status).toBe(400);
    expect((await body<SignupAnswer>(tooLong)).result?.error?.firstName).toEqual(["Höchstens 50 Zeichen"]);
    const missing = await run(signupAction, post("/signup", { ...valid, lastName: "  " }));
    expect(missing.status).toBe(400);
    expect(db.select().from(users).all()).toHaveLength(0);
  });
});

describe("confirming the address", () => {
  async function signUpAndGetLink() {
    await run(signupAction, post("/signup", valid));
    return linkIn(outbox()[0].text);
  }

  it("works once within 24 hours", async () => {
    const link = await signUpAndGetLink();
    const token = link.split("/").pop()!;
    expect(await body(await run(confirmLoader, get(link, { params: { token } })))).toEqual({ usable: true });
    const confirmed = await run(confirmAction, post(link, {}, { params: { token } }));
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/login");
    expect(userByEmail("erika.mustermann@example.org")!.emailConfirmedAt).not.toBeNull();

    // The same link again: used up.
    expect(await body(await run(confirmLoader, get(link, { params: { token } })))).toEqual({ usable: false });
    expect((await run(confirmAction, post(link, {}, { params: { token } }))).status).toBe(410);
  });

  it("refuses an expired link", async () => {
    const link = await signUpAndGetLink();
    const token = link.split("/").pop()!;
    db.update(userTokens).set({ expiresAt: new Date(Date.now() - 1000) }).run();
    expect((await run(confirmAction, post(link, {}, { params: { token } }))).status).toBe(410);
    expect(userByEmail("erika.mustermann@example.org")!.emailConfirmedAt).toBeNull();
  });

  it("sends a new link to an unconfirmed account, and answers the same for any other address", async () => {
    const oldLink = await signUpAndGetLink();
    const again = await run(resendAction, post("/konto-bestaetigen", { email: "ERIKA.mustermann@example.org" }));
    expect(again.status).toBe(302);
    const [newest] = outbox();
    expect(newest.subject).toBe("Bitte bestätigen Sie Ihre E-Mail-Adresse");
    const newLink = linkIn(newest.text);
    expect(newLink).not.toBe(oldLink);
    // The older link keeps working (no one ends a person's link by asking for another); once one
    // is used, the other is ended.
    expect((await run(confirmAction, post(oldLink, {}, { params: { token: oldLink.split("/").pop()! } }))).status).toBe(302);
    expect((await run(confirmAction, post(newLink, {}, { params: { token: newLink.split("/").pop()! } }))).status).toBe(410);

    const mails = outbox().length;
    const unknown = await run(resendAction, post("/konto-bestaetigen", { email: "niemand@example.org" }));
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("Location")).toBe(again.headers.get("Location"));
    expect(outbox()).toHaveLength(mails);
  });

  it("mails at most five confirmation links an hour to one account", async () => {
    await signUpAndGetLink();
    for (let i = 0; i < 6; i++) {
      const again = await run(resendAction, post("/konto-bestaetigen", { email: "erika.mustermann@example.org" }));
      expect(again.status).toBe(302);
    }
    // The sign-up's mail and four more.
    expect(outbox()).toHaveLength(5);
  });

  it("refuses an invalid address next to its field, in a page (not JSON) for a form without JavaScript", async () => {
    const response = await run(resendAction, post("/konto-bestaetigen", { email: "erika@example" }));
    expect(response.status).toBe(400);
    expect((await body<{ result: { error: Record<string, string[]> } }>(response)).result.error.email).toEqual([
      "Bitte geben Sie eine gültige eMail-Adresse ein",
    ]);
    expect(outbox()).toHaveLength(0);
  });
});
