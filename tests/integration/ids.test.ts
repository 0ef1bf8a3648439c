// One record, one address: an id in a path or a form is digits without a leading zero. Number()
// took "1e0", "0x1" and "01" for 1, so every record had many addresses (attack probe).
import { beforeAll, describe, expect, it } from "vitest";
import { loader as accountLoader } from "~/routes/account.$id";
import { loader as enrollLoader } from "~/routes/enroll.$eventId";
import { loader as eventLoader } from "~/routes/freizeit.$id";
import { loader as calendarLoader } from "~/routes/freizeit_.$id.kalender[.ics]";
import { loader as listLoader } from "~/routes/freizeit.participants.$id";
import { loader as detailLoader } from "~/routes/freizeit.participants.participant-details.$registrationID";
import { loader as helperLoader } from "~/routes/freizeit.helper.$freizeitId.helper-details.$userId";
import { resetDatabase } from "../support/fixtures";
import { register } from "../support/lists-fixtures";
import { get, run } from "../support/remix";
import { campWithPeople } from "../support/review-fixtures";

let camp: Awaited<ReturnType<typeof campWithPeople>>;
let registrationId: number;

beforeAll(async () => {
  resetDatabase();
  camp = await campWithPeople();
  registrationId = register(camp.event.id).registration.id;
});

const spellings = (id: number) => [`0${id}`, `${id}.0`, `${id}e0`, `0x${id.toString(16)}`, `+${id}`];

describe("an id written any other way is no address (404)", () => {
  it("for the pages of an event, its calendar, its lists and an enrolment form", async () => {
    const admin = camp.people.admin.cookie;
    const pages: [string, (args: never) => unknown, (id: string) => Record<string, string>][] = [
      ["/freizeit/", eventLoader, (id) => ({ id })],
      ["/enroll/", enrollLoader, (id) => ({ eventId: id })],
      ["/freizeit/participants/", listLoader, (id) => ({ id })],
    ];
    for (const [path, loader, params] of pages) {
      expect((await run(loader, get(`${path}${camp.event.id}`, { cookie: admin, params: params(String(camp.event.id)) }))).status, path).toBe(200);
      for (const id of spellings(camp.event.id)) {
        const answer = await run(loader, get(`${path}${id}`, { cookie: admin, params: params(id) })).catch((thrown: Response) => thrown);
        expect(answer.status, `${path}${id}`).toBe(404);
      }
    }
    for (const id of spellings(camp.event.id)) {
      expect((await run(calendarLoader, get(`/freizeit/${id}/kalender.ics`, { params: { id } }))).status).toBe(404);
    }
  });

  it("for a registration's details, a helper's details and an account", async () => {
    const admin = camp.people.admin.cookie;
    for (const id of spellings(registrationId)) {
      expect((await run(detailLoader, get(`/x/${id}`, { cookie: admin, params: { registrationID: id } }))).status).toBe(404);
    }
    for (const id of spellings(camp.people.team.id)) {
      const params = { freizeitId: String(camp.event.id), userId: id };
      expect((await run(helperLoader, get(`/x/${id}`, { cookie: admin, params }))).status).toBe(404);
    }
    for (const id of spellings(camp.people.parent.id)) {
      expect((await run(accountLoader, get(`/account/${id}`, { cookie: admin, params: { id } }))).status).toBe(404);
    }
  });
});
