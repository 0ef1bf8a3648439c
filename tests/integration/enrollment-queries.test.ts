// The enrolment's prepared queries (app/models/enrollment-queries.server.ts) write what the
// queries they replaced wrote: unanswered permissions stay null on the registration and keep the
// child's earlier answer, answered ones are stored as 1/0, times are the enrolment's own (not the
// moment a query was built), and an event shown to the team alone is open to its team only.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { enrolments, participants, registrationHistory, registrations } from "../../db/schema";
import { enrol, EnrolmentError, getEnrolmentContext, type EnrolmentRequest } from "~/models/enrollment.server";
import { getEnrolmentConfirmation } from "~/models/enrollment-confirmation.server";
import type { SessionUser } from "~/models/user.server";
import type { BoxValue } from "~/schemas/enrollment";
import { db, rawSqlite } from "~/services/db.server";
import { createEvent } from "../support/events";
import { createUser, resetDatabase } from "../support/fixtures";

beforeEach(() => resetDatabase());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function account(role: SessionUser["role"] = "user") {
  const user = await createUser({ role });
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role } as SessionUser;
}

/** Grown up: no guardian needed, so each box names only its child. */
function child(userId: number, permissions: Partial<typeof participants.$inferInsert> = {}) {
  return db
    .insert(participants)
    .values({ userId, firstName: "Mia", lastName: "Muster", street: "Hauptstr. 1", city: "Kiel", birthDate: "2000-05-01", ...permissions })
    .returning()
    .get();
}

let key = 0;
function request(boxes: Partial<BoxValue>[]): EnrolmentRequest {
  return {
    submissionKey: `schluessel-${Date.now()}-${++key}`,
    referral: "Freunde",
    paymentMethod: "transfer",
    sepa: null,
    boxes: boxes.map((box) => ({ specialNeeds: "", nameOfInsured: "", guardian: "", ...box }) as BoxValue),
  };
}

describe("the enrolment's prepared queries", () => {
  it("store answered permissions as 1/0, leave unanswered ones null and keep the child's earlier answers", async () => {
    const parent = await account();
    const event = createEvent({ capacity: 10 });
    const mia = child(parent.id, { allowedToSwim: true, canSwim: false });
    const before = Date.now();
    const { enrolmentId } = await enrol(
      event.id,
      parent,
      request([{ participant: String(mia.id), allowedToWander: "nein", canSwim: "ja", tshirtSize: "M", specialNeeds: "Nussallergie", birthdateOfInsured: "" }]),
    );
    const raw = rawSqlite()
      .prepare("SELECT allowed_to_wander, allowed_to_swim, can_swim, allowed_to_canoe, tshirt_size, special_needs, birthdate_of_insured, waiting_list_position FROM registrations WHERE enrolment_id = ?")
      .get(enrolmentId);
    expect(raw).toEqual({
      allowed_to_wander: 0,
      allowed_to_swim: null,
      can_swim: 1,
      allowed_to_canoe: null,
      tshirt_size: "M",
      special_needs: "Nussallergie",
      birthdate_of_insured: null,
      waiting_list_position: null,
    });
    const stored = db.select().from(participants).where(eq(participants.id, mia.id)).get()!;
    expect({ wander: stored.allowedToWander, swim: stored.allowedToSwim, canSwim: stored.canSwim, canoe: stored.allowedToCanoe }).toEqual({
      wander: false,
      swim: true, // not asked this time: the earlier answer stays
      canSwim: true,
      canoe: null,
    });
    expect(stored.tshirtSize).toBe("M");
    expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(before);

    const history = db.select().from(registrationHistory).all();
    expect(history).toEqual([expect.objectContaining({ actorId: parent.id, action: "created" })]);
    const enrolment = db.select().from(enrolments).where(eq(enrolments.id, enrolmentId)).get()!;
    expect(enrolment.reference).not.toMatch(/^neu-/);
    expect(enrolment.consentedAt?.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("take each enrolment's own times, not those of the first one", async () => {
    const parent = await account();
    const event = createEvent({ capacity: 10 });
    const mia = child(parent.id);
    const first = await enrol(event.id, parent, request([{ participant: String(mia.id) }]), new Date("2026-01-01T10:00:00Z"));
    const updatedFirst = db.select().from(participants).where(eq(participants.id, mia.id)).get()!.updatedAt.getTime();
    await pause(5);
    const other = createEvent({ capacity: 10 });
    const second = await enrol(other.id, parent, request([{ participant: String(mia.id) }]), new Date("2026-01-02T10:00:00Z"));
    const updatedSecond = db.select().from(participants).where(eq(participants.id, mia.id)).get()!.updatedAt.getTime();
    expect(updatedSecond).toBeGreaterThan(updatedFirst);
    const consented = (id: number) => db.select().from(enrolments).where(eq(enrolments.id, id)).get()!.consentedAt?.toISOString();
    expect([consented(first.enrolmentId), consented(second.enrolmentId)]).toEqual(["2026-01-01T10:00:00.000Z", "2026-01-02T10:00:00.000Z"]);
    const created = db.select({ createdAt: registrations.createdAt }).from(registrations).all().map((r) => r.createdAt.getTime());
    expect(created[1]).toBeGreaterThan(created[0]);
  });

  it("open an event shown to the team alone to its team and admins only", async () => {
    const lead = await account();
    const helper = await account();
    const stranger = await account();
    const admin = await account("admin");
    const event = createEvent({ onlyStaffVisible: true, ownerIds: [lead.id], helpers: [[helper.id, "accepted"]] });
    expect(getEnrolmentContext(event.id, stranger)).toBeNull();
    await expect(enrol(event.id, stranger, request([{ participant: String(child(stranger.id).id) }]))).rejects.toThrow(EnrolmentError);
    for (const person of [lead, helper, admin]) {
      expect(getEnrolmentContext(event.id, person)?.event.id).toBe(event.id);
      const { enrolmentId } = await enrol(event.id, person, request([{ participant: String(child(person.id).id) }]));
      expect(getEnrolmentConfirmation(enrolmentId, person)?.children).toHaveLength(1);
    }
  });

  it("show a confirmation to its own account and to admins only", async () => {
    const parent = await account();
    const other = await account();
    const admin = await account("admin");
    const event = createEvent({ capacity: 1 });
    const { enrolmentId } = await enrol(event.id, parent, request([{ participant: String(child(parent.id).id) }, { participant: String(child(parent.id).id) }]));
    const own = getEnrolmentConfirmation(enrolmentId, parent)!;
    expect(own.children.map((c) => c.waitingListPosition)).toEqual([null, 1]);
    expect(getEnrolmentConfirmation(enrolmentId, other)).toBeNull();
    expect(getEnrolmentConfirmation(enrolmentId, admin)?.id).toBe(enrolmentId);
  });
});
