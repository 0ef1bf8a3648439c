// Data minimisation at its boundaries: one day before and on the day; the subsidy list's data
// (names, addresses, birth dates, municipality) stays until the registration goes.
import { eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, comments, eventHelpers, eventMailRecipients, eventMails, events, mailOutbox, participants, registrationHistory, registrations, sepaMandates, users } from "../../db/schema";
import { retentionPreview, runRetention, shiftIsoDate } from "~/models/retention.server";
import { db } from "~/services/db.server";
import { createUser, resetDatabase } from "../support/fixtures";
import { createEvent } from "../support/events";
import { createMandate, createRegistration, registration } from "../support/registrations";

const noon = (iso: string) => new Date(`${iso}T12:00:00+02:00`);

async function campThatEnded(dateTo: string) {
  const parent = await createUser();
  const event = createEvent({ dateFrom: shiftIsoDate(dateTo, { days: -7 }), dateTo });
  const mandate = createMandate(event.id, parent.id);
  const r = createRegistration(event.id, parent.id, { status: "accepted", sepaMandateId: mandate.id });
  db.update(registrations)
    .set({ specialNeeds: "Nussallergie", nameOfInsured: "Eva Muster", birthdateOfInsured: "1985-01-01", allowedToSwim: true, canSwim: false })
    .where(eq(registrations.id, r.id))
    .run();
  db.insert(comments).values({ participantId: r.participantId, eventId: event.id, authorId: parent.id, text: "Braucht Notfallmedikament" }).run();
  return { event, r, mandate, parent };
}

beforeEach(() => resetDatabase());

describe("shiftIsoDate", () => {
  it("moves by days, months and years, keeping the day within the month", () => {
    expect(shiftIsoDate("2026-03-31", { days: -30 })).toBe("2026-03-01");
    expect(shiftIsoDate("2026-03-31", { months: -1 })).toBe("2026-02-28");
    expect(shiftIsoDate("2024-02-29", { years: -5 })).toBe("2019-02-28");
    expect(shiftIsoDate("2026-01-15", { months: -14 })).toBe("2024-11-15");
  });
});

describe("the minimisation run", () => {
  it("30 days after the event: health data, insurance, permissions and comments go; the rest stays", async () => {
    const { r, mandate } = await campThatEnded("2026-08-01");
    const dayBefore = noon("2026-08-30");
    expect(retentionPreview(dayBefore)).toEqual({ healthData: 0, comments: 0, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
    expect(runRetention(dayBefore)).toEqual({ healthData: 0, comments: 0, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
    expect(registration(r.id).specialNeeds).toBe("Nussallergie");

    const onTheDay = noon("2026-08-31");
    expect(retentionPreview(onTheDay)).toEqual({ healthData: 1, comments: 1, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
    expect(runRetention(onTheDay)).toEqual({ healthData: 1, comments: 1, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
    expect(registration(r.id)).toMatchObject({
      specialNeeds: "",
      nameOfInsured: "",
      birthdateOfInsured: null,
      allowedToSwim: null,
      canSwim: null,
      applicationStatus: "accepted",
    });
    expect(db.select().from(comments).all()).toEqual([]);
    // The subsidy list's data stays with the child's record; the mandate stays for now.
    expect(db.select().from(participants).where(eq(participants.id, r.participantId)).get()).toMatchObject({ firstName: expect.any(String), birthDate: "2015-05-05", street: "Weg 1" });
    expect(db.select().from(sepaMandates).where(eq(sepaMandates.id, mandate.id)).get()).toBeDefined();
    // A second run finds nothing more.
    expect(runRetention(onTheDay)).toEqual({ healthData: 0, comments: 0, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
  });

  it("SEPA mandates go 14 months after the event, registrations after 5 years; the child's record stays", async () => {
    const { r, mandate } = await campThatEnded("2026-08-01");
    expect(runRetention(noon("2027-09-30")).sepaMandates).toBe(0);
    expect(runRetention(noon("2027-10-01")).sepaMandates).toBe(1);
    expect(db.select().from(sepaMandates).where(eq(sepaMandates.id, mandate.id)).get()).toBeUndefined();
    expect(registration(r.id)).toBeDefined();
    expect(runRetention(noon("2031-07-31")).registrations).toBe(0);
    expect(runRetention(noon("2031-08-01")).registrations).toBe(1);
    expect(db.select().from(registrations).where(eq(registrations.id, r.id)).get()).toBeUndefined();
    expect(db.select().from(participants).where(eq(participants.id, r.participantId)).get()).toBeDefined();
  });

  it("writes counts, never contents, to the protocol", async () => {
    await campThatEnded("2026-08-01");
    runRetention(noon("2026-09-15"));
    const entry = db.select().from(auditLog).where(eq(auditLog.action, "retention.run")).get()!;
    expect(JSON.parse(entry.details!)).toEqual({ healthData: 1, comments: 1, registrations: 0, sepaMandates: 0, helperChecks: 0, mails: 0 });
    expect(entry.details).not.toContain("Nuss");
  });

  it("the reasons of decisions go with the health data (they may name an illness), in the history and the protocol; the steps stay", async () => {
    const { event, r, parent } = await campThatEnded("2026-08-01");
    // A registration whose answers are gone already but whose rejection names an illness.
    const rejected = createRegistration(event.id, parent.id, { status: "rejected" });
    for (const [id, action, reason] of [[r.id, "accepted", ""], [r.id, "payment_confirmed", "Überweisung eingegangen"], [rejected.id, "rejected", "Diabetes, keine Betreuung möglich"]] as const) {
      db.insert(registrationHistory).values({ registrationId: id, actorId: parent.id, action, reason }).run();
      db.insert(auditLog).values({ actorId: parent.id, action: `registration.${action === "accepted" ? "accepted" : action === "rejected" ? "rejected" : "payment_confirmed"}`, entityType: "registration", entityId: id, details: JSON.stringify({ eventId: event.id, ...(reason ? { reason } : {}) }) }).run();
    }
    expect(retentionPreview(noon("2026-08-30")).healthData).toBe(0);
    expect(retentionPreview(noon("2026-08-31")).healthData).toBe(2);
    expect(runRetention(noon("2026-08-31")).healthData).toBe(2);
    const history = db.select().from(registrationHistory).all();
    expect(history.map((h) => [h.action, h.reason])).toEqual([["accepted", ""], ["payment_confirmed", ""], ["rejected", ""]]);
    const protocol = db.select().from(auditLog).where(eq(auditLog.entityType, "registration")).all();
    expect(protocol.map((e) => JSON.parse(e.details!))).toEqual([{ eventId: event.id }, { eventId: event.id }, { eventId: event.id }]);
    expect(runRetention(noon("2026-08-31")).healthData).toBe(0);

    // An event deleted since: its registrations are gone, the protocol's reasons go at the next run.
    const deleted = createEvent({ title: "Abgesagt", inDays: 40 });
    const gone = createRegistration(deleted.id, parent.id, { status: "rejected" });
    db.insert(auditLog).values({ actorId: parent.id, action: "registration.rejected", entityType: "registration", entityId: gone.id, details: JSON.stringify({ eventId: deleted.id, reason: "Epilepsie" }) }).run();
    runRetention(noon("2026-08-31"));
    expect(db.select().from(auditLog).where(eq(auditLog.entityId, gone.id)).get()!.details).toContain("Epilepsie");
    db.delete(events).where(eq(events.id, deleted.id)).run();
    runRetention(noon("2026-08-31"));
    expect(JSON.parse(db.select().from(auditLog).where(eq(auditLog.entityId, gone.id)).get()!.details!)).toEqual({ eventId: deleted.id });
  });

  it("takes the helper checks that are due with it (DECISIONS.md 'Helper checks'), counted in the preview and the protocol", async () => {
    const helper = await createUser();
    const lead = await createUser();
    const now = noon("2026-09-15");
    const ended = createEvent({ dateFrom: "2026-06-01", dateTo: "2026-06-14" });
    const upcoming = createEvent({ dateFrom: "2026-10-01", dateTo: "2026-10-05" });
    db.insert(eventHelpers).values([{ eventId: ended.id, userId: helper.id, status: "accepted" }, { eventId: upcoming.id, userId: lead.id, status: "accepted" }]).run();
    const record = { policeCertificateCheckedOn: "2026-01-10", policeCertificateCheckedBy: "Lea", helperChecksRecordedOn: "2026-01-10", phone: "0151 1" };
    db.update(users).set(record).where(inArray(users.id, [helper.id, lead.id])).run();
    expect(retentionPreview(noon("2026-09-14")).helperChecks).toBe(0);
    expect(retentionPreview(now).helperChecks).toBe(1);
    expect(runRetention(now, null)).toMatchObject({ helperChecks: 1 });
    expect(db.select({ on: users.policeCertificateCheckedOn, phone: users.phone }).from(users).where(eq(users.id, helper.id)).get()).toEqual({ on: null, phone: "0151 1" });
    expect(db.select({ on: users.policeCertificateCheckedOn }).from(users).where(eq(users.id, lead.id)).get()).toEqual({ on: "2026-01-10" });
    const entry = db.select().from(auditLog).where(eq(auditLog.action, "retention.run")).get()!;
    expect(JSON.parse(entry.details!)).toMatchObject({ helperChecks: 1 });
    expect(runRetention(now).helperChecks).toBe(0);
  });

  it("delivered and given-up mails go after the same days (their texts name children and reasons); waiting ones and an event mail's stay", async () => {
    const { event, parent } = await campThatEnded("2030-08-01");
    const now = noon("2026-09-15");
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const mail = (status: "pending" | "sent" | "failed", createdAt: Date, subject: string) =>
      db.insert(mailOutbox).values({ recipients: '["eva@example.org"]', subject, text: "Begründung: Diabetes", status, nextAttemptAt: createdAt, createdAt }).returning().get().id;
    mail("sent", daysAgo(31), "alt gesendet");
    mail("failed", daysAgo(31), "alt aufgegeben");
    mail("sent", daysAgo(29), "neu gesendet");
    mail("pending", daysAgo(40), "wartet");
    const eventMailDelivery = mail("sent", daysAgo(60), "Packliste");
    const sent = db.insert(eventMails).values({ eventId: event.id, senderId: parent.id, senderName: "Eva", subject: "Packliste", text: "Schlafsack", audience: "both" }).returning().get();
    db.insert(eventMailRecipients).values({ mailId: sent.id, email: "eva@example.org", outboxId: eventMailDelivery }).run();

    expect(retentionPreview(now).mails).toBe(2);
    expect(runRetention(now).mails).toBe(2);
    expect(db.select({ subject: mailOutbox.subject }).from(mailOutbox).all().map((m) => m.subject).sort()).toEqual(["Packliste", "neu gesendet", "wartet"]);
    expect(runRetention(now).mails).toBe(0);
  });

  it("an event that has not ended keeps everything", async () => {
    const { r } = await campThatEnded("2030-08-01");
    runRetention(noon("2026-09-15"));
    expect(registration(r.id).specialNeeds).toBe("Nussallergie");
  });
});
