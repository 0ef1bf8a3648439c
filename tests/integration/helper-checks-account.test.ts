// Admins enter the helper checks on /account/{id} (DECISIONS.md 'Helper checks'; issue 11 item 6).
import { beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "~/routes/account.$id";
import { getHelperChecks } from "~/models/helper-check.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { daysFromToday } from "../support/events";
import { body, get, post, run } from "../support/remix";

let admin: { id: number };
let helper: { id: number };
beforeEach(async () => {
  resetDatabase();
  admin = await createUser({ role: "admin" });
  helper = await createUser();
});

const valid = () => ({
  policeCertificateCheckedOn: daysFromToday(-3),
  policeCertificateCheckedBy: "Lea Leitung",
  juleicaNumber: "JL-2026/123",
  juleicaExpiresOn: daysFromToday(400),
  phone: "+49 171 5550123",
});

async function send(actor: { id: number }, form: Record<string, string>) {
  return run(action, post(`/account/${helper.id}?nachweise`, form, { cookie: await sessionCookieFor(actor.id), params: { id: String(helper.id) } }));
}

describe("helper checks on the account", () => {
  it("an admin saves them; the page shows them", async () => {
    const response = await send(admin, valid());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/account/${helper.id}`);
    expect(getHelperChecks(helper.id)).toEqual(valid());
    const page = await body<{ checks: unknown }>(await run(loader, get(`/account/${helper.id}`, { cookie: await sessionCookieFor(admin.id), params: { id: String(helper.id) } })));
    expect(page.checks).toEqual(valid());
  });

  it("clearing every field removes them", async () => {
    await send(admin, valid());
    await send(admin, { policeCertificateCheckedOn: "", policeCertificateCheckedBy: "", juleicaNumber: "", juleicaExpiresOn: "", phone: "" });
    expect(getHelperChecks(helper.id)).toEqual({ policeCertificateCheckedOn: null, policeCertificateCheckedBy: null, juleicaNumber: null, juleicaExpiresOn: null, phone: null });
  });

  it.each([
    ["a future inspection date", { policeCertificateCheckedOn: daysFromToday(1) }, "policeCertificateCheckedOn", "Das Datum der Einsicht darf nicht in der Zukunft liegen."],
    ["no inspector", { policeCertificateCheckedBy: "" }, "policeCertificateCheckedBy", "Bitte gib an, wer das Führungszeugnis eingesehen hat."],
    ["a broken date", { juleicaExpiresOn: "2026-02-30" }, "juleicaExpiresOn", "Bitte gib ein gültiges Datum an."],
    ["a Juleica without expiry", { juleicaExpiresOn: "" }, "juleicaExpiresOn", "Bitte gib an, bis wann die Juleica gilt."],
    ["letters as phone", { phone: "ruf mich an" }, "phone", "Bitte gib eine Telefonnummer aus Ziffern an (höchstens 50 Zeichen)."],
  ])("refuses %s with a German message (400)", async (_name, change, field, message) => {
    const response = await send(admin, { ...valid(), ...change });
    expect(response.status).toBe(400);
    const data = await body<{ helperChecks: { errors: Record<string, string> } }>(response);
    expect(data.helperChecks.errors[field]).toBe(message);
    expect(getHelperChecks(helper.id)?.policeCertificateCheckedOn).toBeNull();
  });

  it("anyone but an admin is sent home and changes nothing", async () => {
    const other = await createUser();
    const response = await send(other, valid());
    expect(response.headers.get("Location")).toBe("/");
    expect(getHelperChecks(helper.id)?.juleicaNumber).toBeNull();
  });
});
