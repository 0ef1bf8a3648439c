// The lead persons' mail 30 days before the event (DECISIONS.md 'Helper checks'; issue 11 item 6).
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { events, users } from "../../db/schema";
import { countHelperChecksDue, getHelperChecks, monthsBefore, purgeOldHelperChecks, saveHelperChecks, sendHelperCheckReminders } from "~/models/helper-check.server";
import { berlinToday } from "~/lib/dates";
import { auditLog } from "../../db/schema";
import { db } from "~/services/db.server";
import { createUser, resetDatabase } from "../support/fixtures";
import { createEvent, daysFromToday } from "../support/events";
import { addHelperEntry } from "../support/helper-camp";
import { outbox } from "../support/remix";

beforeEach(() => resetDatabase());

async function camp(inDays: number) {
  const lead = await createUser({ firstName: "Lea" });
  const coLead = await createUser();
  const helper = await createUser({ firstName: "Hugo", lastName: "Helfer" });
  const fine = await createUser();
  const pending = await createUser();
  db.update(users).set({ policeCertificateCheckedOn: daysFromToday(-10), policeCertificateCheckedBy: "Lea" }).where(eq(users.id, fine.id)).run();
  const event = createEvent({ inDays, title: "Herbstlager", ownerIds: [lead.id, coLead.id] });
  addHelperEntry(event.id, helper.id, "accepted");
  addHelperEntry(event.id, fine.id, "accepted");
  addHelperEntry(event.id, pending.id, "pending");
  return { event, lead, coLead, helper };
}

describe("sendHelperCheckReminders", () => {
  it("does nothing 31 days before the start", async () => {
    await camp(31);
    expect(sendHelperCheckReminders(new Date())).toEqual([]);
    expect(outbox()).toHaveLength(0);
  });

  it("30 days before: one mail to each lead person listing what is missing, once", async () => {
    const { event, lead, coLead } = await camp(30);
    expect(sendHelperCheckReminders(new Date())).toEqual([event.id]);
    const mails = outbox();
    expect(mails.map((m) => m.to[0]).sort()).toEqual([lead.email, coLead.email].sort());
    const mail = mails.find((m) => m.to[0] === lead.email)!;
    expect(mail.subject).toBe("Nachweise der Helfer*innen für „Herbstlager“");
    expect(mail.text).toContain("Hallo Lea,");
    expect(mail.text).toContain("In 30 Tagen");
    expect(mail.text).toContain("- Hugo Helfer: Erweitertes Führungszeugnis fehlt");
    expect(mail.text.match(/^- /gm)).toHaveLength(1); // the fine and the pending helper are not listed
    expect(mail.text).toContain(`/freizeit/helper/${event.id}`);
    expect(sendHelperCheckReminders(new Date())).toEqual([]);
    expect(outbox()).toHaveLength(2);
  });

  it("an event created later than 30 days before gets it at the next run; a started one never", async () => {
    const { event } = await camp(10);
    const started = createEvent({ inDays: -1, ownerIds: [(await createUser()).id] });
    expect(sendHelperCheckReminders(new Date())).toEqual([event.id]);
    expect(outbox()[0].text).toContain("Am ");
    expect(db.select().from(events).where(eq(events.id, started.id)).get()?.helperCheckReminderSentAt).toBeNull();
  });

  it("nothing missing: no mail, but marked as done", async () => {
    const lead = await createUser();
    const event = createEvent({ inDays: 20, ownerIds: [lead.id] });
    expect(sendHelperCheckReminders(new Date())).toEqual([event.id]);
    expect(outbox()).toHaveLength(0);
    expect(db.select().from(events).where(eq(events.id, event.id)).get()?.helperCheckReminderSentAt).not.toBeNull();
  });
});

describe("purgeOldHelperChecks", () => {
  const record = { policeCertificateCheckedOn: "2025-01-02", policeCertificateCheckedBy: "Lea", juleicaNumber: "J-1", juleicaExpiresOn: "2028-01-01", phone: "0151 1" };

  it("months before, clamped to the month's end", () => {
    expect(monthsBefore("2026-05-31", 3)).toBe("2026-02-28");
    expect(monthsBefore("2026-02-15", 3)).toBe("2025-11-15");
  });

  it("clears the record three months after the last event as a helper, not a day earlier; the phone stays", async () => {
    const cutoff = monthsBefore(berlinToday(), 3);
    const dayBefore = new Date(`${cutoff}T12:00:00Z`);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    const gone = await createUser();
    const kept = await createUser();
    const later = await createUser();
    const neverHelper = await createUser();
    const pendingOnly = await createUser();
    for (const u of [gone, kept, later]) db.update(users).set({ ...record, helperChecksRecordedOn: "2025-01-02" }).where(eq(users.id, u.id)).run();
    // Recorded today, for people who are no accepted helper (yet).
    for (const u of [neverHelper, pendingOnly]) db.update(users).set({ ...record, helperChecksRecordedOn: berlinToday() }).where(eq(users.id, u.id)).run();
    const old = createEvent({ dateFrom: "2020-01-01", dateTo: dayBefore.toISOString().slice(0, 10) });
    const edge = createEvent({ dateFrom: "2020-01-01", dateTo: cutoff });
    const future = createEvent({ inDays: 60 });
    addHelperEntry(old.id, gone.id, "accepted");
    addHelperEntry(edge.id, kept.id, "accepted");
    addHelperEntry(old.id, later.id, "accepted");
    addHelperEntry(future.id, later.id, "accepted");
    addHelperEntry(old.id, pendingOnly.id, "pending");
    // The phone is the account's own number (/account), not part of the record: it stays, and an
    // accepted helper with a phone and no checks has nothing to clear.
    const phoneOnly = await createUser();
    db.update(users).set({ phone: "0171 2345678" }).where(eq(users.id, phoneOnly.id)).run();
    addHelperEntry(old.id, phoneOnly.id, "accepted");
    expect(countHelperChecksDue(new Date())).toBe(1);
    expect(purgeOldHelperChecks(new Date())).toBe(1);
    expect(getHelperChecks(gone.id)).toEqual({ policeCertificateCheckedOn: null, policeCertificateCheckedBy: null, juleicaNumber: null, juleicaExpiresOn: null, phone: "0151 1" });
    expect(getHelperChecks(phoneOnly.id)?.phone).toBe("0171 2345678");
    for (const u of [kept, later, neverHelper, pendingOnly]) expect(getHelperChecks(u.id)).toEqual(record);
    const audit = db.select().from(auditLog).all();
    expect(audit.map((a) => [a.action, a.details])).toEqual([["retention.run", JSON.stringify({ helperChecks: 1 })]]);
    expect(purgeOldHelperChecks(new Date())).toBe(0);
  });

  // A record is entered for an accepted helper (or by an admin, for anyone). Whoever is no accepted
  // helper (declined, withdrawn, the event deleted: entries of the last two are gone) has no "last event as a helper" to
  // wait for: the checks go three months after they were recorded. The phone stays, as for everyone.
  it("of someone who is no accepted helper: the checks go three months after they were recorded, the phone stays", async () => {
    const cutoff = monthsBefore(berlinToday(), 3);
    const dayBefore = new Date(`${cutoff}T12:00:00Z`);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    const old = dayBefore.toISOString().slice(0, 10);
    const declinedEnded = await createUser();
    const declined = await createUser();
    const noEntry = await createUser();
    const recent = await createUser();
    const edge = await createUser();
    const ended = createEvent({ dateFrom: "2020-01-01", dateTo: old });
    const future = createEvent({ inDays: 60 });
    addHelperEntry(ended.id, declinedEnded.id, "declined");
    addHelperEntry(future.id, declined.id, "declined");
    for (const u of [declinedEnded, declined, noEntry]) db.update(users).set({ ...record, helperChecksRecordedOn: old }).where(eq(users.id, u.id)).run();
    db.update(users).set({ ...record, helperChecksRecordedOn: berlinToday() }).where(eq(users.id, recent.id)).run();
    db.update(users).set({ ...record, helperChecksRecordedOn: cutoff }).where(eq(users.id, edge.id)).run();
    expect(purgeOldHelperChecks(new Date())).toBe(3);
    for (const u of [declinedEnded, declined, noEntry]) {
      expect(getHelperChecks(u.id)).toEqual({ policeCertificateCheckedOn: null, policeCertificateCheckedBy: null, juleicaNumber: null, juleicaExpiresOn: null, phone: "0151 1" });
    }
    for (const u of [recent, edge]) expect(getHelperChecks(u.id)).toEqual(record);
    expect(purgeOldHelperChecks(new Date())).toBe(0);
  });

  it("a record entered after the helper's last event stays three months from its entry", async () => {
    const helper = await createUser();
    const ended = createEvent({ dateFrom: "2020-01-01", dateTo: "2020-01-05" });
    addHelperEntry(ended.id, helper.id, "accepted");
    expect(saveHelperChecks(helper.id, record)).toBe(true);
    expect(db.select({ on: users.helperChecksRecordedOn }).from(users).where(eq(users.id, helper.id)).get()).toEqual({ on: berlinToday() });
    expect(purgeOldHelperChecks(new Date())).toBe(0);
    expect(getHelperChecks(helper.id)).toEqual(record);
    // Cleared by hand: no record, no date.
    saveHelperChecks(helper.id, { policeCertificateCheckedOn: null, policeCertificateCheckedBy: null, juleicaNumber: null, juleicaExpiresOn: null, phone: null });
    expect(db.select({ on: users.helperChecksRecordedOn }).from(users).where(eq(users.id, helper.id)).get()).toEqual({ on: null });
  });
});
