// Every mail to a person ends with the association's greeting, in the form of address of the
// screen that caused it (mail review: the sign-up, password and address mails ended without one).
import { beforeEach, describe, expect, it } from "vitest";
import { requestPasswordReset, signUp } from "~/models/auth.server";
import { changeEmailByAdmin, requestEmailChange } from "~/models/user.server";
import { createUser, resetDatabase } from "../support/fixtures";
import { outbox } from "../support/remix";

beforeEach(() => resetDatabase());

const SIE = "\n\nViele Grüße\nIhr Lagerfeuer-Team";
const DU = "\n\nViele Grüße\nDein Lagerfeuer-Team";

describe("the greeting at the end of a mail", () => {
  it("the sign-up's and the password's mails say 'Sie', as their pages", async () => {
    expect(await signUp({ firstName: "Eva", lastName: "Muster", email: "eva@example.org", password: "ein-langes-Passwort-1" }, "client-1")).toMatchObject({ ok: true });
    expect(outbox()[0].text.endsWith(SIE)).toBe(true);
    requestPasswordReset("eva@example.org", "client-2");
    expect(outbox()[0].subject).toBe("Passwort zurücksetzen");
    expect(outbox()[0].text.endsWith(SIE)).toBe(true);
  });

  it("the account's address mails say 'du', as the account page", async () => {
    const user = await createUser({ email: "alt@example.org" });
    expect(requestEmailChange(user.id, "neu@example.org", "client-3")).toEqual({ ok: true });
    expect(outbox()[0].text.endsWith(DU)).toBe(true);
    expect(changeEmailByAdmin(user.id, "andere@example.org", "admin@example.org")).toEqual({ ok: true });
    for (const mail of outbox().slice(0, 2)) expect(mail.text.endsWith(DU)).toBe(true);
  });
});
