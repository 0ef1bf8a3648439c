// Lead persons (Leitung) are lead persons because they are listed on the event, whatever their
// role; only an admin changes that list, and only on purpose. (Issue 8: an admin who saved the
// edit form unchanged removed the lead persons who were not admins.)
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { eventOwners, users } from "../../db/schema";
import { action as editAction, loader as editLoader } from "~/routes/freizeit.edit.$freizeitId";
import { db } from "~/services/db.server";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { createEvent, multipartPost, validEventFields } from "../support/events";
import { body, get, run } from "../support/remix";

type EditData = {
  leadCandidates: { id: number; firstName: string; lastName: string }[];
  canChangeOwners: boolean;
  defaults: Record<string, string | string[] | boolean>;
};

beforeEach(() => resetDatabase());

const ownersOf = (eventId: number) =>
  db.select({ id: eventOwners.userId }).from(eventOwners).where(eq(eventOwners.eventId, eventId)).all().map((o) => o.id).sort((a, b) => a - b);

async function openEditForm(eventId: number, cookie: string) {
  const response = await run(editLoader, get(`/freizeit/edit/${eventId}`, { cookie, params: { freizeitId: String(eventId) } }));
  expect(response.status).toBe(200);
  return body<EditData>(response);
}

/** What the browser sends for the form as shown: every checked lead person among the choices. */
function sendAsShown(eventId: number, cookie: string, form: EditData, changes: Record<string, string | string[]> = {}) {
  const checked = form.leadCandidates.map((p) => String(p.id)).filter((id) => (form.defaults.ownerIds as string[]).includes(id));
  const fields = validEventFields({ ...(form.canChangeOwners ? { ownersShown: "1", ownerIds: checked } : {}), ...changes });
  const args = multipartPost(`/freizeit/edit/${eventId}`, fields, {}, cookie);
  args.params = { freizeitId: String(eventId) };
  return run(editAction, args);
}

describe("lead persons on the edit form", () => {
  it("an admin who saves the form unchanged keeps every lead person, admins or not", async () => {
    const admin = await createUser({ role: "admin" });
    const volunteer = await createUser({ role: "user", lastName: "Ehrenamt" });
    const camp = createEvent({ ownerIds: [admin.id, volunteer.id] });
    const cookie = await sessionCookieFor(admin.id);
    const form = await openEditForm(camp.id, cookie);
    // The choice offers the current lead persons whatever their role.
    expect(form.leadCandidates.map((p) => p.id)).toContain(volunteer.id);
    expect((await sendAsShown(camp.id, cookie, form)).status).toBe(302);
    expect(ownersOf(camp.id)).toEqual([admin.id, volunteer.id].sort((a, b) => a - b));
  });

  it("an admin removes a lead person on purpose; an id that is neither admin nor lead person is ignored", async () => {
    const admin = await createUser({ role: "admin" });
    const volunteer = await createUser();
    const stranger = await createUser();
    const camp = createEvent({ ownerIds: [admin.id, volunteer.id] });
    const cookie = await sessionCookieFor(admin.id);
    const form = await openEditForm(camp.id, cookie);
    expect(form.leadCandidates.map((p) => p.id)).not.toContain(stranger.id);
    await sendAsShown(camp.id, cookie, form, { ownersShown: "1", ownerIds: [String(admin.id), String(stranger.id)] });
    expect(ownersOf(camp.id)).toEqual([admin.id]);
  });

  it("a lead person's rights come from the list, not the admin role; their save changes no lead person", async () => {
    const lead = await createUser({ role: "admin" });
    const other = await createUser({ role: "admin" });
    const camp = createEvent({ ownerIds: [lead.id, other.id] });
    db.update(users).set({ role: "user" }).where(eq(users.id, lead.id)).run(); // admin role revoked
    const cookie = await sessionCookieFor(lead.id);
    const form = await openEditForm(camp.id, cookie);
    expect(form.canChangeOwners).toBe(false);
    // Even a forged list from a lead person changes nothing.
    const saved = await sendAsShown(camp.id, cookie, form, { ownersShown: "1", ownerIds: [String(lead.id)], title: "Neu" });
    expect(saved.status).toBe(302);
    expect(ownersOf(camp.id)).toEqual([lead.id, other.id].sort((a, b) => a - b));
  });

  it("an admin's form without the lead-person choice (an old page) changes no lead person", async () => {
    const admin = await createUser({ role: "admin" });
    const volunteer = await createUser();
    const camp = createEvent({ ownerIds: [volunteer.id] });
    const cookie = await sessionCookieFor(admin.id);
    const args = multipartPost(`/freizeit/edit/${camp.id}`, validEventFields(), {}, cookie);
    args.params = { freizeitId: String(camp.id) };
    expect((await run(editAction, args)).status).toBe(302);
    expect(ownersOf(camp.id)).toEqual([volunteer.id]);
  });

  it("somebody who is no longer a lead person cannot edit, even as a former admin", async () => {
    const former = await createUser({ role: "user" });
    const camp = createEvent({ ownerIds: [] });
    const cookie = await sessionCookieFor(former.id);
    const response = await run(editLoader, get(`/freizeit/edit/${camp.id}`, { cookie, params: { freizeitId: String(camp.id) } }));
    expect(response.status).toBe(404);
  });
});
