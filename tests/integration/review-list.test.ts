// The participant list (issue 10, item 2): who sees it (DECISIONS.md role table), its sections,
// numbers, filter and search, the decision steps, and a constant number of queries.
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { enrolments, registrationHistory, registrations, users } from "../../db/schema";
import { PAGE_SIZE } from "~/lib/review-filter";
import { enrolmentReference } from "~/lib/transfer";
import { action, loader } from "~/routes/freizeit.participants.$id";
import { db } from "~/services/db.server";
import { createEvent } from "../support/events";
import { resetDatabase } from "../support/fixtures";
import { addGroup, register } from "../support/lists-fixtures";
import { body, get, post, run } from "../support/remix";
import { campWithPeople, countStatements, mandateFor, type Person } from "../support/review-fixtures";

type ListData = {
  may: { decideRegistrations: boolean; confirmPayments: boolean; viewSepa: boolean; export: boolean; assignGroups: boolean; viewDetails: boolean };
  counts: { capacity: number | null; taken: number; free: number | null; openDecisions: number; unpaid: number; waiting: number; total: number };
  table: { id: number; firstName: string; lastName: string; groupName: string | null }[];
  waiting: { id: number; waitingListPosition: number; offerExpiresAt: number | null }[];
  rejected: { id: number; applicationStatus: string }[];
  openSepa: { id: number; children: number; amountCents: number }[];
  step: { intent: string; registrationId: number; name: string; nextInLine?: string; noPlace?: { places: number; placesThen: number; addPlace: boolean } } | null;
  paging: { page: number; pageCount: number; matching: number };
  bulkStep: { rows: { id: number; name: string }[]; ticked: number } | null;
  bulkRefusal: { title: string; attempt: number } | null;
};

let camp: Awaited<ReturnType<typeof campWithPeople>>;
const ids: Record<string, number> = {};

function list(person: Person | null, search = "") {
  const cookie = person ? camp.people[person].cookie : undefined;
  return run(loader, get(`/freizeit/participants/${camp.event.id}${search}`, { cookie, params: { id: String(camp.event.id) } }));
}

beforeAll(async () => {
  resetDatabase();
  camp = await campWithPeople({ capacity: 6 });
  const e = camp.event.id;
  const sepaParent = register(e, { status: "open", child: { firstName: "Paula", lastName: "Lastschrift" }, answers: { paymentMethod: "sepa" } });
  const mandate = mandateFor(e, sepaParent.userId);
  db.update(registrations).set({ sepaMandateId: mandate.id }).where(eq(registrations.id, sepaParent.registration.id)).run();
  ids.sepa = sepaParent.registration.id;
  ids.mandate = mandate.id;
  ids.open = register(e, { status: "open", child: { firstName: "Olga", lastName: "Offen" } }).registration.id;
  ids.acceptedPaid = register(e, { status: "accepted", paid: true, child: { firstName: "Bea", lastName: "Bezahlt" } }).registration.id;
  ids.accepted = register(e, { status: "accepted", child: { firstName: "Udo", lastName: "Unbezahlt" } }).registration.id;
  ids.waiting = register(e, { status: "open", waitingListPosition: 2, child: { firstName: "Wim", lastName: "Warten" } }).registration.id;
  ids.offered = register(e, { status: "open", waitingListPosition: 1, child: { firstName: "Olli", lastName: "Angebot" } }).registration.id;
  db.update(registrations).set({ offerExpiresAt: new Date(Date.now() + 48 * 3600_000) }).where(eq(registrations.id, ids.offered)).run();
  ids.rejected = register(e, { status: "rejected", child: { firstName: "Rita", lastName: "Abgelehnt" } }).registration.id;
  ids.cancelled = register(e, { status: "cancelled", child: { firstName: "Stefan", lastName: "Storniert" } }).registration.id;
  addGroup(e, "Füchse", { registrationIds: [ids.acceptedPaid] });
  // Another event's registration never shows here.
  register(createEvent({ title: "Anderes Lager" }).id, { status: "open", child: { firstName: "Fremd", lastName: "Kind" } });
});

describe("who sees the participant list", () => {
  it.each([
    ["admin", true, true],
    ["lead", true, true],
    ["team", false, false],
  ] as const)("%s sees it (decides: %s, SEPA: %s)", async (person, decides, sepa) => {
    const response = await list(person);
    expect(response.status).toBe(200);
    const data = await body<ListData>(response);
    expect(data.may).toEqual({ decideRegistrations: decides, confirmPayments: decides, viewSepa: sepa, export: true, assignGroups: true, viewDetails: true });
    expect(data.openSepa.length > 0).toBe(sepa);
  });

  it.each(["pending", "declined", "parent"] as const)("%s is sent to / (the spec's guard)", async (person) => {
    const response = await list(person);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it("a visitor is sent to the sign-in and back", async () => {
    const response = await list(null);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/freizeit/participants/${camp.event.id}`)}`);
  });

  it("an unknown or malformed event is 404", async () => {
    for (const id of ["999999", "abc", "-1"]) {
      const response = await run(loader, get(`/freizeit/participants/${id}`, { cookie: camp.people.admin.cookie, params: { id } }));
      expect(response.status).toBe(404);
    }
  });

  it.each(["team", "pending", "parent"] as const)("a decision POSTed by %s changes nothing", async (person) => {
    const response = await run(
      action,
      post(`/freizeit/participants/${camp.event.id}`, { intent: "accept", registrationId: String(ids.open) }, { cookie: camp.people[person].cookie, params: { id: String(camp.event.id) } }),
    );
    expect([302, 404]).toContain(response.status);
    if (response.status === 302) expect(response.headers.get("Location")).toBe("/");
    expect(db.select().from(registrations).where(eq(registrations.id, ids.open)).get()!.applicationStatus).toBe("open");
    expect(db.select().from(registrationHistory).where(eq(registrationHistory.registrationId, ids.open)).all()).toEqual([]);
  });
});

describe("what the list shows", () => {
  it("the numbers at a glance come from the whole event", async () => {
    const data = await body<ListData>(await list("lead"));
    // Places: 4 placed (Paula, Olga, Bea, Udo) + 1 open offer (Olli).
    expect(data.counts).toEqual({ capacity: 6, taken: 5, free: 1, openDecisions: 2, unpaid: 3, waiting: 2, total: 8 });
  });

  it("open and accepted in the table by name with their group, the waiting list in order, rejected and cancelled apart", async () => {
    const data = await body<ListData>(await list("lead"));
    expect(data.table.map((r) => r.lastName)).toEqual(["Bezahlt", "Lastschrift", "Offen", "Unbezahlt"]);
    expect(data.table.find((r) => r.id === ids.acceptedPaid)!.groupName).toBe("Füchse");
    expect(data.table.find((r) => r.id === ids.open)!.groupName).toBeNull();
    // The offer first; it holds a place, so the child behind it is first in line (the list shows
    // the offer's deadline in place of a number).
    expect(data.waiting.map((r) => [r.id, r.waitingListPosition])).toEqual([
      [ids.offered, 1],
      [ids.waiting, 1],
    ]);
    expect(data.waiting[0].offerExpiresAt).toBeGreaterThan(Date.now());
    expect(data.rejected.map((r) => [r.id, r.applicationStatus])).toEqual([
      [ids.rejected, "rejected"],
      [ids.cancelled, "cancelled"],
    ]);
    expect(data.openSepa).toEqual([{ id: ids.mandate, firstName: "Konrad", lastName: "Konto", children: 1, amountCents: 24950 }]);
  });

  it.each([
    ["?filter=offen", ["sepa", "open"]],
    ["?filter=bestaetigt", ["acceptedPaid", "accepted"]],
    ["?filter=unbezahlt", ["sepa", "open", "accepted"]],
    ["?filter=warteliste", ["offered", "waiting"]],
    ["?filter=abgelehnt", ["rejected", "cancelled"]],
    ["?suche=bezahlt", ["acceptedPaid", "accepted"]],
    ["?suche=OLGA%20offen", ["open"]],
    ["?filter=bestaetigt&suche=bea", ["acceptedPaid"]],
    ["?suche=niemand", []],
    ["?filter=unsinn", ["acceptedPaid", "sepa", "open", "accepted", "offered", "waiting", "rejected", "cancelled"]],
  ])("%s shows %j", async (search, expected) => {
    const data = await body<ListData>(await list("lead", search));
    const shown = [...data.table, ...data.waiting, ...data.rejected].map((r) => r.id);
    expect(new Set(shown)).toEqual(new Set(expected.map((k) => ids[k])));
    expect(data.counts.total).toBe(8);
  });

  it("the transfer's reference finds the children of its enrolment (matching a bank statement)", async () => {
    const e = camp.event.id;
    const userId = db.select({ userId: registrations.userId }).from(registrations).where(eq(registrations.id, ids.open)).get()!.userId;
    const enrolment = db.insert(enrolments).values({ eventId: e, userId, submissionKey: `ref-${Date.now()}`, reference: "x", paymentMethod: "transfer" }).returning().get();
    const reference = enrolmentReference(e, enrolment.id);
    db.update(enrolments).set({ reference }).where(eq(enrolments.id, enrolment.id)).run();
    db.update(registrations).set({ enrolmentId: enrolment.id }).where(inArray(registrations.id, [ids.open, ids.accepted])).run();
    for (const search of [reference, `Überweisung ${reference.replaceAll("-", " ")} Konrad Konto`]) {
      const data = await body<ListData>(await list("lead", `?suche=${encodeURIComponent(search)}`));
      expect(new Set([...data.table, ...data.waiting, ...data.rejected].map((r) => r.id)), search).toEqual(new Set([ids.open, ids.accepted]));
    }
    db.update(registrations).set({ enrolmentId: null }).where(inArray(registrations.id, [ids.open, ids.accepted])).run();
  });

  // Leaders' review: a statement without a reference names the payer, whom the search did not know.
  it("the account holder's name finds the account's children, and the rows do not carry it", async () => {
    const userId = db.select({ userId: registrations.userId }).from(registrations).where(eq(registrations.id, ids.open)).get()!.userId;
    const holder = db.select().from(users).where(eq(users.id, userId)).get()!;
    const own = db.select({ id: registrations.id }).from(registrations).where(and(eq(registrations.userId, userId), eq(registrations.eventId, camp.event.id))).all().map((r) => r.id);
    // As a statement writes it: the last name first, a comma, the first name.
    const data = await body<ListData>(await list("lead", `?suche=${encodeURIComponent(`${holder.lastName}, ${holder.firstName}`)}`));
    expect(own.length).toBeGreaterThan(0);
    const rows = [...data.table, ...data.waiting, ...data.rejected];
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(own));
    expect(rows.every((r) => !("payer" in r))).toBe(true);
  });

  it("the event without registrations says so through its counts", async () => {
    const empty = createEvent({ ownerIds: [camp.people.lead.id] });
    const response = await run(loader, get(`/freizeit/participants/${empty.id}`, { cookie: camp.people.lead.cookie, params: { id: String(empty.id) } }));
    const data = await body<ListData>(response);
    expect(data.counts.total).toBe(0);
    expect(data.table).toEqual([]);
  });
});

describe("pages of a long list", () => {
  it(`shows ${PAGE_SIZE} registrations a page in the order table, waiting list, rejected; a page past the end is the last`, async () => {
    const event = createEvent({ ownerIds: [camp.people.lead.id] });
    for (let i = 0; i < PAGE_SIZE - 5; i++) register(event.id, { status: "accepted" });
    for (let i = 1; i <= 10; i++) register(event.id, { status: "open", waitingListPosition: i });
    register(event.id, { status: "rejected" });
    const page = async (search: string) =>
      body<ListData>(await run(loader, get(`/freizeit/participants/${event.id}${search}`, { cookie: camp.people.lead.cookie, params: { id: String(event.id) } })));
    const first = await page("");
    expect([first.table.length, first.waiting.length, first.rejected.length]).toEqual([PAGE_SIZE - 5, 5, 0]);
    expect(first.paging).toEqual({ page: 1, pageCount: 2, matching: PAGE_SIZE + 6 });
    const second = await page("?seite=2");
    expect([second.table.length, second.waiting.length, second.rejected.length]).toEqual([0, 5, 1]);
    expect(second.waiting.map((r) => r.waitingListPosition)).toEqual([6, 7, 8, 9, 10]);
    expect((await page("?seite=7")).paging.page).toBe(2);
    expect((await page("?filter=warteliste&seite=2")).paging).toEqual({ page: 1, pageCount: 1, matching: 10 });
  });
});

describe("decision steps (reason or confirmation, without JavaScript)", () => {
  it("the lead gets the reject step for an open registration", async () => {
    const data = await body<ListData>(await list("lead", `?entscheiden=reject&anmeldung=${ids.open}`));
    // Leaders' review: the step did not say that the freed place is offered to another family at once.
    expect(data.step).toEqual({ intent: "reject", registrationId: ids.open, name: "Olga Offen", nextInLine: "Wim Warten" });
  });

  it("a step that frees a place names the child it goes to; one that frees none names nobody", async () => {
    const stepOf = async (query: string) => (await body<ListData>(await list("lead", query))).step;
    expect(await stepOf(`?entscheiden=cancel&anmeldung=${ids.accepted}`)).toMatchObject({ intent: "cancel", nextInLine: "Wim Warten" });
    // The waiting child's own rejection frees no place.
    expect(await stepOf(`?entscheiden=reject&anmeldung=${ids.waiting}`)).toEqual({ intent: "reject", registrationId: ids.waiting, name: "Wim Warten" });
    expect(await stepOf(`?entscheiden=accept&anmeldung=${ids.open}`)).not.toHaveProperty("nextInLine");
  });

  it("the lead gets the accept step, where an optional note to the parents goes (DECISIONS.md)", async () => {
    const data = await body<ListData>(await list("lead", `?entscheiden=accept&anmeldung=${ids.open}`));
    expect(data.step).toEqual({ intent: "accept", registrationId: ids.open, name: "Olga Offen" });
    // Only where accepting is allowed: a waiting child moves up instead.
    expect((await body<ListData>(await list("lead", `?entscheiden=accept&anmeldung=${ids.waiting}`))).step).toBeNull();
  });

  it("the lead gets the confirmation step to revoke a rejection", async () => {
    const data = await body<ListData>(await list("lead", `?entscheiden=revoke-rejection&anmeldung=${ids.rejected}`));
    expect(data.step).toEqual({ intent: "revoke-rejection", registrationId: ids.rejected, name: "Rita Abgelehnt" });
  });

  it("'Nachrücken' for a waiting child says at once when no place is free, and how many places one more makes", async () => {
    const asked = `?entscheiden=move-up&anmeldung=${ids.waiting}`;
    expect((await body<ListData>(await list("lead", asked))).step).toEqual({ intent: "move-up", registrationId: ids.waiting, name: "Wim Warten" });
    const { events } = await import("../../db/schema");
    db.update(events).set({ capacity: 5 }).where(eq(events.id, camp.event.id)).run();
    try {
      expect((await body<ListData>(await list("lead", asked))).step).toEqual({
        intent: "move-up",
        registrationId: ids.waiting,
        name: "Wim Warten",
        noPlace: { places: 5, placesThen: 6, addPlace: true },
      });
      // An offered child holds its place already: no question of room.
      expect((await body<ListData>(await list("lead", `?entscheiden=move-up&anmeldung=${ids.offered}`))).step).toEqual({ intent: "move-up", registrationId: ids.offered, name: "Olli Angebot" });
    } finally {
      db.update(events).set({ capacity: 6 }).where(eq(events.id, camp.event.id)).run();
    }
  });

  it.each([
    ["team", "reject", "open"],
    ["lead", "reject", "accepted"],
    ["lead", "cancel", "open"],
    ["lead", "revoke-rejection", "open"],
    ["team", "accept", "open"],
    ["lead", "accept", "accepted"],
  ] as const)("no step for %s: %s on the %s one", async (person, intent, key) => {
    const data = await body<ListData>(await list(person, `?entscheiden=${intent}&anmeldung=${ids[key]}`));
    expect(data.step).toBeNull();
  });

  it("no step for another event's registration", async () => {
    const other = register(createEvent().id, { status: "open" }).registration.id;
    expect((await body<ListData>(await list("lead", `?entscheiden=reject&anmeldung=${other}`))).step).toBeNull();
  });

  it("a reject without a reason is refused next to the field; with one it goes back to the list with its filter, at the row", async () => {
    const url = `/freizeit/participants/${camp.event.id}?filter=offen&entscheiden=reject&anmeldung=${ids.open}`;
    const params = { id: String(camp.event.id) };
    const refused = await run(action, post(url, { intent: "reject", registrationId: String(ids.open), reason: "  " }, { cookie: camp.people.lead.cookie, params }));
    expect(refused.status).toBe(400);
    const reply = await body<{ decision: { fieldErrors: { reason: string[] } } }>(refused);
    expect(reply.decision.fieldErrors.reason).toEqual(["Begründung ist erforderlich"]);
    const done = await run(action, post(url, { intent: "reject", registrationId: String(ids.open), reason: "Zu jung" }, { cookie: camp.people.lead.cookie, params }));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/freizeit/participants/${camp.event.id}?filter=offen#anmeldung-${ids.open}`);
    expect(db.select().from(registrations).where(eq(registrations.id, ids.open)).get()!.applicationStatus).toBe("rejected");
  });
});

describe("'Ausgewählte annehmen' asks first (a stray tap mailed every ticked family at once)", () => {
  const picks: Record<string, number> = {};
  beforeAll(() => {
    picks.anna = register(camp.event.id, { status: "open", child: { firstName: "Anna", lastName: "Auswahl" } }).registration.id;
    picks.ben = register(camp.event.id, { status: "open", child: { firstName: "Ben", lastName: "Ärmel" } }).registration.id;
  });
  const bulk = (person: Person, ...picked: number[]) => list(person, `?filter=offen&entscheiden=accept-many${picked.map((id) => `&auswahl=${id}`).join("")}`);

  it("its step names the ticked children accepting takes, by name; others ticked are counted apart", async () => {
    const data = await body<ListData>(await bulk("lead", picks.anna, picks.ben, ids.accepted, ids.waiting, picks.anna));
    // By name as the list sorts them (Ä as A).
    expect(data.bulkStep).toEqual({
      rows: [
        { id: picks.ben, name: "Ben Ärmel" },
        { id: picks.anna, name: "Anna Auswahl" },
      ],
      ticked: 4,
    });
    expect(data.bulkRefusal).toBeNull();
    // Asking changes nothing.
    expect(db.select().from(registrations).where(eq(registrations.id, picks.anna)).get()!.applicationStatus).toBe("open");
  });

  it("nothing ticked, or nothing open any more, is said at the page's top", async () => {
    expect(await body<ListData>(await bulk("lead"))).toMatchObject({ bulkStep: null, bulkRefusal: { title: "Bitte wähle mindestens eine offene Anmeldung aus." } });
    const other = register(createEvent().id, { status: "open" }).registration.id;
    expect(await body<ListData>(await bulk("lead", ids.accepted, other))).toMatchObject({ bulkStep: null, bulkRefusal: { title: "Die ausgewählten Anmeldungen sind nicht mehr offen." } });
  });

  it("the team, who do not decide, get no step", async () => {
    expect(await body<ListData>(await bulk("team", picks.anna))).toMatchObject({ bulkStep: null, bulkRefusal: null });
  });

  it("the step's note is refused next to its field when too long; accepted, the list keeps its filter and drops the step", async () => {
    const url = `/freizeit/participants/${camp.event.id}?filter=offen&entscheiden=accept-many&auswahl=${picks.anna}`;
    const params = { id: String(camp.event.id) };
    const form = (reason: string) => ({ intent: "accept-many", registrationIds: String(picks.anna), reason });
    const refused = await run(action, post(url, form("x".repeat(1001)), { cookie: camp.people.lead.cookie, params }));
    expect(refused.status).toBe(400);
    expect((await body<{ decision: { fieldErrors: { reason: string[] } } }>(refused)).decision.fieldErrors.reason).toHaveLength(1);
    expect(db.select().from(registrations).where(eq(registrations.id, picks.anna)).get()!.applicationStatus).toBe("open");
    const done = await run(action, post(url, form("Bis bald!"), { cookie: camp.people.lead.cookie, params }));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/freizeit/participants/${camp.event.id}?filter=offen`);
    expect(db.select().from(registrations).where(eq(registrations.id, picks.anna)).get()!.applicationStatus).toBe("accepted");
  });
});

describe("speed", () => {
  async function statementsFor(n: number) {
    const event = createEvent({ ownerIds: [camp.people.lead.id], capacity: n });
    for (let i = 0; i < n; i++) {
      const r = register(event.id, { status: i % 3 === 0 ? "open" : "accepted", paid: i % 2 === 0, answers: { paymentMethod: i % 4 === 0 ? "sepa" : "transfer" } });
      if (i % 4 === 0) db.update(registrations).set({ sepaMandateId: mandateFor(event.id, r.userId).id }).where(eq(registrations.id, r.registration.id)).run();
      if (i % 5 === 0) addGroup(event.id, `Gruppe ${i}`, { registrationIds: [r.registration.id] });
    }
    const { result, statements } = await countStatements(() =>
      run(loader, get(`/freizeit/participants/${event.id}?entscheiden=reject&anmeldung=1`, { cookie: camp.people.lead.cookie, params: { id: String(event.id) } })),
    );
    expect(result.status).toBe(200);
    expect((await body<ListData>(result)).table).toHaveLength(n);
    return statements;
  }

  it("the list asks the database the same number of times for 5 and for 50 registrations", async () => {
    const few = await statementsFor(5);
    const many = await statementsFor(50);
    expect(many).toBe(few);
    expect(few).toBeGreaterThanOrEqual(4); // session, access, rows, counts, SEPA, step
    expect(few).toBeLessThanOrEqual(8);
  });
});
