// The leaders' decisions: each writes its history and one mail with the reason, only allowed
// transitions, a repeat changes nothing, a refused action writes nothing.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, participants, registrations } from "../../db/schema";
import { acceptMany, confirmMandatePayments, decide } from "~/models/registration-decision.server";
import { PAYMENT_MAIL_DELAY_MS, PAYMENT_MAIL_NOTE, sendPaymentMails } from "~/models/payment-mails.server";
import { deleteEvent } from "~/models/event.server";
import { deleteAccount } from "~/models/account-deletion.server";
import type { SessionUser } from "~/models/user.server";
import { db } from "~/services/db.server";
import { handleDecisionForm } from "~/services/decision-form.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent } from "../support/events";
import { createMandate, createRegistration, historyOf, registration } from "../support/registrations";
import { outbox, post } from "../support/remix";
import { countStatements } from "../support/review-fixtures";

let lead: SessionUser;
let parent: Awaited<ReturnType<typeof createUser>>;
let eventId: number;

/** `minutes` after `from` (default: now). */
const later = (minutes: number, from = new Date()) => new Date(from.getTime() + minutes * 60_000);

beforeEach(async () => {
  resetDatabase();
  const user = await createUser({ role: "user", firstName: "Lea" });
  lead = { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: "user" };
  parent = await createUser({ firstName: "Petra" });
  eventId = createEvent({ ownerIds: [lead.id], capacity: 10, title: "Zeltlager" }).id;
});

describe("a single decision", () => {
  it("accept: state, history with the person, one mail, an audit entry; a repeat changes nothing", () => {
    const r = createRegistration(eventId, parent.id, { firstName: "Mia" });
    const name = `${db.select().from(participants).where(eq(participants.id, r.participantId)).get()!.firstName} Muster`;
    expect(decide(eventId, r.id, "accept", lead, "Willkommen!")).toEqual({ ok: true, changed: true, message: `${name}: Die Anmeldung ist bestätigt.` });
    expect(registration(r.id).applicationStatus).toBe("accepted");
    expect(historyOf(r.id)).toEqual([expect.objectContaining({ action: "accepted", actorId: lead.id, reason: "Willkommen!" })]);
    const mails = outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual([parent.email]);
    expect(mails[0].subject).toBe("Anmeldung bestätigt: Mia Muster – Zeltlager");
    // Accepting takes a note, not a reason (DECISIONS.md).
    expect(mails[0].text).toContain("Notiz der Leitung: Willkommen!");
    expect(mails[0].text).not.toContain("Begründung");
    // A registration from before enrolments has no confirmation page to point to: the mail says how to pay.
    expect(mails[0].text).toContain("Bitte überweise für Mia 150,00");
    expect(db.select().from(auditLog).all()).toEqual([expect.objectContaining({ action: "registration.accepted", actorId: lead.id, entityId: r.id })]);

    expect(decide(eventId, r.id, "accept", lead)).toMatchObject({ ok: true, changed: false });
    expect(historyOf(r.id)).toHaveLength(1);
    expect(outbox()).toHaveLength(1);
  });

  it("reject needs a reason; the parent reads it in the mail", () => {
    const r = createRegistration(eventId, parent.id);
    expect(decide(eventId, r.id, "reject", lead, "   ")).toEqual({ ok: false, status: 400, message: "Begründung ist erforderlich", field: "reason" });
    // A filler that shows nothing is no reason either (attack probe: the mail read "Begründung: ㅤ").
    expect(decide(eventId, r.id, "reject", lead, "\u3164")).toEqual({ ok: false, status: 400, message: "Begründung ist erforderlich", field: "reason" });
    expect(registration(r.id).applicationStatus).toBe("open");
    expect(outbox()).toEqual([]);
    expect(decide(eventId, r.id, "reject", lead, "Leider zu jung.")).toMatchObject({ ok: true, changed: true });
    expect(registration(r.id).applicationStatus).toBe("rejected");
    expect(historyOf(r.id)[0]).toMatchObject({ action: "rejected", reason: "Leider zu jung." });
    expect(outbox()[0].text).toContain("Begründung: Leider zu jung.");
  });

  // Walkthrough: a family answering a rejection wrote to MAIL_FROM (noreply by default), and the
  // mail said nothing of whom to ask.
  it("a decision's mail answers to the person who decided, and says so; a mail nobody decided answers to no one", () => {
    const rejected = createRegistration(eventId, parent.id, { firstName: "Rudi" });
    const accepted = createRegistration(eventId, parent.id, { firstName: "Anni" });
    decide(eventId, rejected.id, "reject", lead, "Leider zu jung.");
    acceptMany(eventId, [accepted.id], lead);
    for (const child of ["Rudi", "Anni"]) {
      const mail = outbox().find((m) => m.subject.includes(child))!;
      expect(mail.replyTo).toBe(lead.email);
      expect(mail.text).toContain(`Bei Fragen antworte einfach auf diese E-Mail; sie geht an ${lead.firstName} ${lead.lastName}.`);
    }
    decide(eventId, accepted.id, "confirm-payment", lead);
    expect(sendPaymentMails(later(10))).toBe(1);
    const paid = outbox()[0];
    expect(paid.subject).toMatch(/^Zahlung eingegangen/);
    expect(paid.replyTo).toBeNull();
    expect(paid.text).not.toContain("Bei Fragen antworte");
  });

  it("cancel an accepted one with a reason; a rejected one can be revoked", () => {
    const accepted = createRegistration(eventId, parent.id, { status: "accepted" });
    expect(decide(eventId, accepted.id, "cancel", lead, "")).toMatchObject({ ok: false, status: 400 });
    expect(decide(eventId, accepted.id, "cancel", lead, "Familie hat abgesagt")).toMatchObject({ ok: true, changed: true });
    expect(registration(accepted.id).applicationStatus).toBe("cancelled");
    const rejected = createRegistration(eventId, parent.id, { status: "rejected" });
    expect(decide(eventId, rejected.id, "revoke-rejection", lead)).toMatchObject({ ok: true, changed: true });
    expect(registration(rejected.id)).toMatchObject({ applicationStatus: "open", waitingListPosition: null });
  });

  it("refuses what the state machine does not allow with 409 and writes nothing", () => {
    const rejected = createRegistration(eventId, parent.id, { status: "rejected" });
    const open = createRegistration(eventId, parent.id);
    const waiting = createRegistration(eventId, parent.id, { waiting: 1 });
    expect(decide(eventId, rejected.id, "accept", lead)).toMatchObject({ ok: false, status: 409 });
    expect(decide(eventId, open.id, "cancel", lead, "x")).toMatchObject({ ok: false, status: 409 });
    expect(decide(eventId, waiting.id, "accept", lead)).toEqual({
      ok: false,
      status: 409,
      message: "Diese Anmeldung steht auf der Warteliste. Bitte zuerst nachrücken lassen.",
    });
    expect(decide(eventId, waiting.id, "confirm-payment", lead)).toMatchObject({ ok: false, status: 409 });
    expect(historyOf(rejected.id).length + historyOf(open.id).length + historyOf(waiting.id).length).toBe(0);
    expect(outbox()).toEqual([]);
  });

  it("a registration of another event is not found", () => {
    const other = createEvent({ ownerIds: [lead.id] }).id;
    const r = createRegistration(other, parent.id);
    expect(decide(eventId, r.id, "accept", lead)).toMatchObject({ ok: false, status: 404 });
    expect(registration(r.id).applicationStatus).toBe("open");
  });

  it("payments: the parent's mail waits ten minutes; a confirmation revoked meanwhile is never sent", () => {
    const r = createRegistration(eventId, parent.id, { status: "accepted" });
    const now = new Date();
    expect(decide(eventId, r.id, "confirm-payment", lead, "", now)).toMatchObject({ ok: true, changed: true });
    expect(registration(r.id)).toMatchObject({ paid: true, paymentMailAt: new Date(now.getTime() + PAYMENT_MAIL_DELAY_MS) });
    expect(PAYMENT_MAIL_DELAY_MS).toBe(10 * 60_000);
    expect(outbox()).toEqual([]);
    expect(sendPaymentMails(later(9, now))).toBe(0);
    // A mistake, undone within the ten minutes: nothing goes out, then or later.
    expect(decide(eventId, r.id, "revoke-payment", lead)).toMatchObject({ ok: true, changed: true });
    expect(registration(r.id)).toMatchObject({ paid: false, paymentMailAt: null });
    expect(sendPaymentMails(later(60, now))).toBe(0);
    expect(outbox()).toHaveLength(0);
    expect(historyOf(r.id).map((h) => h.action)).toEqual(["payment_confirmed", "payment_revoked"]);
  });

  // Leaders' review: a family paying for two children by one transfer (DECISIONS.md, one
  // enrolment, one payment) got one "Zahlung eingegangen" mail per child.
  it("payments: the children of one family confirmed within the ten minutes get one mail, ten minutes after the last", async () => {
    const t0 = new Date();
    const anna = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Anna" });
    const ben = createRegistration(eventId, parent.id, { status: "open", firstName: "Ben" });
    const olga = await createUser({ firstName: "Olga" });
    const karl = createRegistration(eventId, olga.id, { status: "accepted", firstName: "Karl" });
    expect(decide(eventId, anna.id, "confirm-payment", lead, "", t0)).toEqual({
      ok: true,
      changed: true,
      // The flash stays short on a phone (a longer one covered the row it opens at); that the
      // siblings' payments go in one mail needs no word here.
      message: "Anna Muster: Die Bezahlung ist bestätigt. Die Eltern bekommen in 10 Minuten eine E-Mail (nicht, wenn du bis dahin widerrufst).",
    });
    expect(decide(eventId, karl.id, "confirm-payment", lead, "", t0)).toMatchObject({ ok: true, changed: true });
    expect(decide(eventId, ben.id, "confirm-payment", lead, "", later(5, t0))).toMatchObject({ ok: true, changed: true });
    expect(outbox()).toEqual([]);

    // Karl's ten minutes are over; Anna's mail waits for Ben's.
    expect(sendPaymentMails(later(10, t0))).toBe(1);
    expect(outbox().map((m) => [m.to[0], m.subject])).toEqual([[olga.email, "Zahlung eingegangen: Karl Muster – Zeltlager"]]);
    expect(sendPaymentMails(later(15, t0))).toBe(1);
    const [mail] = outbox();
    expect(mail.to).toEqual([parent.email]);
    expect(mail.subject).toBe("Zahlung eingegangen: Anna und Ben Muster – Zeltlager");
    expect(mail.text).toContain("Hallo Petra,");
    expect(mail.text).toContain("die Zahlung für Anna und Ben ist bei uns eingegangen. Vielen Dank!");
    expect(mail.status).toBe("pending");
    // Each mail once.
    expect(sendPaymentMails(later(60, t0))).toBe(0);
    expect(outbox()).toHaveLength(2);
    for (const r of [anna, ben, karl]) expect(registration(r.id)).toMatchObject({ paid: true, paymentMailAt: null });
  });

  it("payments: two children of one first name are named in full; a mark left on an unpaid child mails nothing and goes", async () => {
    const t0 = new Date();
    const first = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Anna" });
    const second = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Anna", lastName: "Beispiel" });
    for (const r of [first, second]) decide(eventId, r.id, "confirm-payment", lead, "", t0);
    expect(sendPaymentMails(later(10, t0))).toBe(1);
    expect(outbox()[0].subject).toBe("Zahlung eingegangen: Anna Muster und Anna Beispiel – Zeltlager");
    expect(outbox()[0].text).toContain("die Zahlung für Anna Muster und Anna Beispiel ist bei uns eingegangen.");

    const unpaid = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Ulla" });
    db.update(registrations).set({ paymentMailAt: t0 }).where(eq(registrations.id, unpaid.id)).run();
    expect(sendPaymentMails(later(10, t0))).toBe(0);
    expect(registration(unpaid.id).paymentMailAt).toBeNull();
    expect(outbox()).toHaveLength(1);
  });

  it("payments: a confirmation already mailed and then revoked tells the parent that the payment is still open", () => {
    const r = createRegistration(eventId, parent.id, { status: "accepted" });
    expect(decide(eventId, r.id, "confirm-payment", lead)).toMatchObject({ ok: true });
    expect(sendPaymentMails(later(10))).toBe(1);
    expect(decide(eventId, r.id, "revoke-payment", lead)).toMatchObject({ ok: true, changed: true });
    const [correction, sent] = outbox();
    expect(sent.subject).toMatch(/^Zahlung eingegangen/);
    expect(correction.subject).toMatch(/^Zahlung noch offen/);
    expect(correction.status).toBe("pending");
    expect(correction.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(correction.text).toContain("noch nicht verbucht");
  });

  // Leaders' review: a family read "Anmeldung storniert" and ten minutes later "Zahlung eingegangen
  // … Vielen Dank!". The waiting mail goes; the cancellation says the payment arrived.
  it("payments: cancelled or rejected within the ten minutes, the waiting 'Zahlung eingegangen' is withdrawn and the mail says the payment arrived", () => {
    const accepted = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Felix" });
    const open = createRegistration(eventId, parent.id, { status: "open", firstName: "Frida" });
    for (const r of [accepted, open]) expect(decide(eventId, r.id, "confirm-payment", lead)).toMatchObject({ ok: true });
    expect(decide(eventId, accepted.id, "cancel", lead, "Fällt aus.")).toMatchObject({ ok: true, changed: true });
    expect(decide(eventId, open.id, "reject", lead, "Zu jung.")).toMatchObject({ ok: true, changed: true });
    expect(sendPaymentMails(later(10))).toBe(0);
    const mails = outbox();
    expect(mails.map((m) => m.subject.split(":")[0]).sort()).toEqual(["Anmeldung abgelehnt", "Anmeldung storniert"]);
    for (const [mail, name] of [[mails.find((m) => m.subject.startsWith("Anmeldung storniert"))!, "Felix"], [mails.find((m) => m.subject.startsWith("Anmeldung abgelehnt"))!, "Frida"]] as const) {
      expect(mail.text).toContain(`Deine Zahlung für ${name} ist bei uns eingegangen; wegen der Rückzahlung melden wir uns bei dir.`);
    }
    // Unpaid: no such line.
    const unpaid = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Ole" });
    decide(eventId, unpaid.id, "cancel", lead, "Fällt aus.");
    expect(outbox().find((m) => m.subject.includes("Ole"))!.text).not.toContain("Deine Zahlung für Ole ist bei uns eingegangen");
  });

  // Parents' review: a rejected child's mail did not say whether its amount was still to be paid.
  it("payments: a rejected or cancelled child that still owed says nothing is to pay for it; a free or waiting one says nothing of money", () => {
    const owing = createRegistration(eventId, parent.id, { status: "open", firstName: "Lena" });
    decide(eventId, owing.id, "reject", lead, "Zu jung.");
    const text = outbox().find((m) => m.subject.includes("Lena"))!.text;
    expect(text).toContain("Für Lena ist damit nichts zu zahlen.");
    expect(text).toContain("Falls du für Lena schon überwiesen hast: Sobald die Zahlung bei uns verbucht ist, melden wir uns wegen der Rückzahlung bei dir.");

    const mandate = createMandate(eventId, parent.id);
    const debited = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Sepp", sepaMandateId: mandate.id });
    decide(eventId, debited.id, "cancel", lead, "Fällt aus.");
    const sepa = outbox().find((m) => m.subject.includes("Sepp"))!.text;
    expect(sepa).toContain("Für Sepp wird damit nichts per Lastschrift eingezogen.");
    expect(sepa).not.toContain("überwiesen");

    const free = createRegistration(eventId, parent.id, { status: "open", firstName: "Frei", amountCents: 0 });
    const waiting = createRegistration(eventId, parent.id, { firstName: "Wanda", waiting: 1 });
    for (const r of [free, waiting]) decide(eventId, r.id, "reject", lead, "Zu jung.");
    for (const name of ["Frei", "Wanda"]) expect(outbox().find((m) => m.subject.includes(name))!.text).not.toMatch(/zahl|Lastschrift|überwies/i);
  });

  // Mail review: a "Zahlung eingegangen" held back for its ten minutes still went out after the
  // account was deleted, or ten minutes after the event's "Veranstaltung abgesagt".
  it("payments: the waiting 'Zahlung eingegangen' is withdrawn when the event or the parent's account is deleted", async () => {
    const other = await createUser({ firstName: "Olga" });
    const kept = createRegistration(eventId, other.id, { status: "accepted", firstName: "Karl" });
    const paidHere = createRegistration(eventId, parent.id, { status: "accepted", firstName: "Felix" });
    const elsewhere = createEvent({ ownerIds: [lead.id], capacity: 10, title: "Herbstlager" }).id;
    const paidThere = createRegistration(elsewhere, other.id, { status: "accepted", firstName: "Karl" });
    for (const [event, r] of [[eventId, kept], [eventId, paidHere], [elsewhere, paidThere]] as const) {
      expect(decide(event, r.id, "confirm-payment", lead)).toMatchObject({ ok: true });
    }
    expect(deleteAccount(parent.id)).toEqual({ ok: true });
    await deleteEvent(eventId, { id: lead.id, email: lead.email });
    expect(sendPaymentMails(later(10))).toBe(1);
    const sent = outbox().filter((m) => m.subject.startsWith("Zahlung eingegangen")).map((m) => `${m.to[0]}|${m.subject}`);
    expect(sent).toEqual([`${other.email}|Zahlung eingegangen: Karl Muster – Herbstlager`]);
  });

  // Review: withdrawing the waiting payment mails deleted once per paid registration.
  it("payments: deleting an event takes back its waiting payment mails in as many statements, however many were paid", async () => {
    const statementsToDelete = async (paid: number) => {
      resetDatabase();
      const owner = await createUser({ role: "user", firstName: "Lea" });
      const event = createEvent({ ownerIds: [owner.id], capacity: 20, title: "Zeltlager" }).id;
      for (let i = 0; i < paid; i++) {
        const family = await createUser({ firstName: `Eltern${i}` });
        const r = createRegistration(event, family.id, { status: "accepted", firstName: `Kind${i}` });
        expect(decide(event, r.id, "confirm-payment", { ...lead, id: owner.id })).toMatchObject({ ok: true });
      }
      const { statements } = await countStatements(() => deleteEvent(event, { id: owner.id, email: owner.email }));
      expect(sendPaymentMails(later(10))).toBe(0);
      return statements;
    };
    expect(await statementsToDelete(6)).toBe(await statementsToDelete(2));
  });

  it("payments: revoked for a registration without a place (cancelled, rejected) asks the parent to pay nothing (attack probe)", () => {
    const r = createRegistration(eventId, parent.id, { status: "accepted" });
    expect(decide(eventId, r.id, "confirm-payment", lead)).toMatchObject({ ok: true });
    expect(sendPaymentMails(later(10))).toBe(1);
    expect(decide(eventId, r.id, "cancel", lead, "Fällt aus.")).toMatchObject({ ok: true, changed: true });
    const before = outbox().length;
    expect(decide(eventId, r.id, "revoke-payment", lead)).toMatchObject({ ok: true, changed: true });
    expect(registration(r.id).paid).toBe(false);
    expect(outbox()).toHaveLength(before);
    expect(outbox().some((mail) => /überweise|eingezogen|Zahlung noch offen/.test(`${mail.subject} ${mail.text}`) && !/^Zahlung eingegangen/.test(mail.subject))).toBe(false);
    expect(historyOf(r.id).map((h) => h.action)).toContain("payment_revoked");
  });
});

describe("several at once", () => {
  it("accepts the ticked open registrations, leaves the others and says so", () => {
    const open = [createRegistration(eventId, parent.id), createRegistration(eventId, parent.id), createRegistration(eventId, parent.id)];
    const rejected = createRegistration(eventId, parent.id, { status: "rejected" });
    const outcome = acceptMany(eventId, [...open.map((r) => r.id), rejected.id], lead);
    expect(outcome).toEqual({ ok: true, changed: true, message: "3 Anmeldungen bestätigt. 1 war nicht (mehr) offen und blieb unverändert." });
    for (const r of open) expect(registration(r.id).applicationStatus).toBe("accepted");
    expect(registration(rejected.id).applicationStatus).toBe("rejected");
    expect(outbox()).toHaveLength(3);
  });

  it("counts only this event's registrations, each once: a doubled, unknown or foreign id is not 'left unchanged'", () => {
    const open = createRegistration(eventId, parent.id);
    const rejected = createRegistration(eventId, parent.id, { status: "rejected" });
    const elsewhere = createRegistration(createEvent({ title: "Anderswo" }).id, parent.id);
    const outcome = acceptMany(eventId, [open.id, open.id, rejected.id, elsewhere.id, 999_999], lead);
    expect(outcome).toEqual({ ok: true, changed: true, message: "1 Anmeldung bestätigt. 1 war nicht (mehr) offen und blieb unverändert." });
    expect(registration(elsewhere.id).applicationStatus).toBe("open");
    expect(historyOf(open.id).filter((h) => h.action === "accepted")).toHaveLength(1);
  });

  it("refuses with a 404 when no ticked id is a registration of this event", () => {
    const elsewhere = createRegistration(createEvent({ title: "Anderswo" }).id, parent.id);
    const outcome = acceptMany(eventId, [elsewhere.id, 999_999], lead);
    expect(outcome).toEqual({ ok: false, status: 404, message: "Diese Anmeldungen gibt es bei dieser Veranstaltung nicht." });
    expect(registration(elsewhere.id).applicationStatus).toBe("open");
  });

  it("a SEPA mandate's payments: exactly that mandate's registrations with a place", async () => {
    const other = await createUser();
    const mandate = createMandate(eventId, parent.id);
    const otherMandate = createMandate(eventId, other.id);
    const mine = [
      createRegistration(eventId, parent.id, { sepaMandateId: mandate.id, firstName: "Anna" }),
      createRegistration(eventId, parent.id, { sepaMandateId: mandate.id, status: "accepted", firstName: "Ben" }),
    ];
    const waiting = createRegistration(eventId, parent.id, { sepaMandateId: mandate.id, waiting: 1 });
    const theirs = createRegistration(eventId, other.id, { sepaMandateId: otherMandate.id });
    expect(confirmMandatePayments(eventId, mandate.id, lead)).toMatchObject({ ok: true, message: `Bezahlung für 2 Anmeldungen bestätigt. ${PAYMENT_MAIL_NOTE}.` });
    expect(mine.map((r) => registration(r.id).paid)).toEqual([true, true]);
    expect(registration(waiting.id).paid).toBe(false);
    expect(registration(theirs.id).paid).toBe(false);
    // One debit, one mail.
    expect(sendPaymentMails(later(10))).toBe(1);
    expect(outbox().map((m) => m.subject)).toEqual(["Zahlung eingegangen: Anna und Ben Muster – Zeltlager"]);
  });
});

describe("the decision form", () => {
  async function send(userId: number, form: Record<string, string>) {
    const args = post(`/freizeit/participants/${eventId}`, form, { cookie: await sessionCookieFor(userId) });
    try {
      return await handleDecisionForm(args.request, eventId, `/freizeit/participants/${eventId}`);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it("lead persons and admins decide; the camp team, applicants and parents are refused and nothing changes", async () => {
    const team = await createUser();
    const applicant = await createUser();
    const admin = await createUser({ role: "admin" });
    const withHelpers = createEvent({ ownerIds: [lead.id], helpers: [[team.id, "accepted"], [applicant.id, "pending"]] }).id;
    eventId = withHelpers;
    const r = createRegistration(eventId, parent.id);
    for (const who of [team.id, applicant.id, parent.id]) {
      expect((await send(who, { intent: "accept", registrationId: String(r.id) })).status).toBe(404);
      expect((await send(who, { intent: "confirm-payment", registrationId: String(r.id) })).status).toBe(404);
    }
    expect(registration(r.id)).toMatchObject({ applicationStatus: "open", paid: false });
    expect(outbox()).toEqual([]);
    const ok = await send(lead.id, { intent: "accept", registrationId: String(r.id) });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/freizeit/participants/${eventId}`);
    expect((await send(admin.id, { intent: "confirm-payment", registrationId: String(r.id) })).status).toBe(302);
    expect(registration(r.id)).toMatchObject({ applicationStatus: "accepted", paid: true });
  });

  it("answers a missing reason with the message next to the field", async () => {
    const r = createRegistration(eventId, parent.id);
    const response = await send(lead.id, { intent: "reject", registrationId: String(r.id), reason: "" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      decision: { intent: "reject", registrationId: r.id, fieldErrors: { reason: ["Begründung ist erforderlich"] }, message: "Begründung ist erforderlich", attempt: expect.any(Number) },
    });
  });

  it("two leaders deciding the same registration at once end in one consistent state", async () => {
    const r = createRegistration(eventId, parent.id);
    const other = await createUser({ role: "admin" });
    const [a, b] = await Promise.all([
      send(lead.id, { intent: "accept", registrationId: String(r.id) }),
      send(other.id, { intent: "reject", registrationId: String(r.id), reason: "voll" }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([302, 409]);
    const history = historyOf(r.id);
    expect(history).toHaveLength(1);
    expect(registration(r.id).applicationStatus).toBe(history[0].action === "accepted" ? "accepted" : "rejected");
    expect(db.select().from(registrations).where(eq(registrations.id, r.id)).all()).toHaveLength(1);
  });
});
