// Enrolment: one submission creates all its registrations (and new children, guardians and the
// SEPA mandate) in one IMMEDIATE transaction, or nothing. Places are counted under the write
// lock, so concurrent enrolments never overbook; a repeated submission finds its registrations.
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import {
  events,
  guardians,
  participants,
  registrationHistory,
  registrations,
  sepaMandates,
  users,
  type PaymentMethod,
} from "../../db/schema";
import { needsGuardian } from "~/lib/age";
import { formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { formatIban } from "~/lib/iban";
import { transferReference } from "~/lib/transfer";
import type { BoxValue, SepaValue } from "~/schemas/enrollment";
import { db, writeTransaction, type Tx } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { queueMail } from "~/services/mail.server";
import { placesTaken, visibleTo } from "./event.server";
import { createGuardian, createParticipant } from "./family.server";
import type { SessionUser } from "./user.server";

export type EnrolmentProblem = { path: string; message: string };

export class EnrolmentError extends Error {
  constructor(readonly problems: EnrolmentProblem[]) {
    super(problems.map((p) => p.message).join(" "));
  }
}

export type EnrolmentRequest = {
  submissionKey: string;
  boxes: BoxValue[];
  referral: string;
  paymentMethod: PaymentMethod;
  /** New or corrected mandate data; null to use the existing one. */
  sepa: Omit<SepaValue, "consentMandate" | "consentPrivacy"> | null;
};

export type EnrolmentResult = {
  registrations: { id: number; firstName: string; lastName: string; waitingListPosition: number | null }[];
  paymentMethod: PaymentMethod;
  priceCents: number;
  eventTitle: string;
  repeated: boolean;
};

/** What the enrolment form needs: the event, the account's children and guardians, a mandate. */
export function getEnrolmentContext(eventId: number, user: SessionUser, now = new Date()) {
  const event = db
    .select({
      id: events.id,
      title: events.title,
      dateFrom: events.dateFrom,
      startsAt: events.startsAt,
      priceCents: events.priceCents,
      capacity: events.capacity,
      requiresApplication: events.requiresApplication,
      tshirtSizeRequired: events.tshirtSizeRequired,
      swimBadgeRequired: events.swimBadgeRequired,
      permitsRequired: events.permitsRequired,
    })
    .from(events)
    .where(and(eq(events.id, eventId), visibleTo(user)))
    .get();
  if (!event || !event.requiresApplication) return null;
  const children = db
    .select()
    .from(participants)
    .where(eq(participants.userId, user.id))
    .orderBy(asc(participants.firstName), asc(participants.lastName))
    .all();
  const family = db
    .select()
    .from(guardians)
    .where(eq(guardians.userId, user.id))
    .orderBy(asc(guardians.lastName), asc(guardians.firstName))
    .all();
  const mandate =
    db
      .select()
      .from(sepaMandates)
      .where(and(eq(sepaMandates.userId, user.id), eq(sepaMandates.eventId, eventId)))
      .get() ?? null;
  const registered = db
    .select({ participantId: registrations.participantId })
    .from(registrations)
    .where(and(eq(registrations.eventId, eventId), eq(registrations.userId, user.id)))
    .all()
    .map((r) => r.participantId);
  const placesLeft = event.capacity === null ? null : Math.max(0, event.capacity - placesTaken(eventId));
  return {
    event: { ...event, started: event.startsAt.getTime() <= now.getTime() },
    children,
    guardians: family,
    mandate,
    registered,
    placesLeft,
  };
}

function toBool(answer: "ja" | "nein" | undefined) {
  return answer === undefined ? null : answer === "ja";
}

function repeatedSubmission(tx: Tx, userId: number, eventId: number, submissionKey: string) {
  return tx
    .select({
      id: registrations.id,
      firstName: participants.firstName,
      lastName: participants.lastName,
      waitingListPosition: registrations.waitingListPosition,
      paymentMethod: registrations.paymentMethod,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.id, registrations.participantId))
    .where(and(eq(registrations.userId, userId), eq(registrations.eventId, eventId), eq(registrations.submissionKey, submissionKey)))
    .orderBy(asc(registrations.id))
    .all();
}

/**
 * Enrols the children of one form. Throws an EnrolmentError (nothing written) when a rule does
 * not hold: the server checks every rule of the spec, whatever the browser sent.
 */
export function enrol(eventId: number, user: SessionUser, request: EnrolmentRequest, now = new Date()): EnrolmentResult {
  return writeTransaction((tx) => {
    const event = tx
      .select()
      .from(events)
      .where(and(eq(events.id, eventId), visibleTo(user)))
      .get();
    if (!event || !event.requiresApplication) throw new EnrolmentError([{ path: "", message: "Die Freizeit wurde nicht gefunden oder konnte nicht geladen werden" }]);

    const earlier = repeatedSubmission(tx, user.id, eventId, request.submissionKey);
    if (earlier.length > 0) {
      return {
        registrations: earlier,
        paymentMethod: earlier[0].paymentMethod,
        priceCents: event.priceCents,
        eventTitle: event.title,
        repeated: true,
      };
    }
    if (event.startsAt.getTime() <= now.getTime()) {
      throw new EnrolmentError([{ path: "", message: "Diese Veranstaltung hat schon begonnen. Eine Anmeldung ist nicht mehr möglich." }]);
    }

    const problems: EnrolmentProblem[] = [];
    const ownChildren = new Map(tx.select().from(participants).where(eq(participants.userId, user.id)).all().map((p) => [p.id, p]));
    const ownGuardians = new Set(tx.select({ id: guardians.id }).from(guardians).where(eq(guardians.userId, user.id)).all().map((g) => g.id));

    type Planned = { participantId: number; firstName: string; lastName: string; guardianId: number | null; box: BoxValue };
    const planned: Planned[] = [];
    request.boxes.forEach((box, index) => {
      const at = (field: string) => `boxes[${index}].${field}`;
      let child: { id: number; firstName: string; lastName: string; birthDate: string };
      if (box.participant === "neu") {
        const c = box.child ?? {};
        const missing = (["firstName", "lastName", "street", "city", "birthDate"] as const).filter((k) => !c[k]);
        if (missing.length) {
          for (const field of missing) problems.push({ path: at(`child.${field}`), message: "Bitte fülle alle Pflichtfelder aus!" });
          return;
        }
        const id = createParticipant(
          user.id,
          { ...c, firstName: c.firstName!, lastName: c.lastName!, street: c.street!, city: c.city!, birthDate: c.birthDate! },
          tx,
        );
        child = { id, firstName: c.firstName!, lastName: c.lastName!, birthDate: c.birthDate! };
      } else {
        const existing = ownChildren.get(Number(box.participant));
        if (!existing) {
          // Someone else's child, or a made-up id: the same answer as for nothing chosen.
          problems.push({ path: at("participant"), message: "Bitte wähle ein Kind aus oder lege eines an." });
          return;
        }
        child = existing;
      }

      let guardianId: number | null = null;
      if (box.guardian === "neu") {
        const g = box.newGuardian ?? {};
        if (!g.firstName || !g.lastName) {
          problems.push({ path: at("newGuardian.firstName"), message: "Bitte gib Vor- und Nachnamen der erziehungsberechtigten Person an." });
        } else {
          guardianId = createGuardian(user.id, { ...g, firstName: g.firstName, lastName: g.lastName }, tx);
        }
      } else if (box.guardian) {
        if (!ownGuardians.has(Number(box.guardian))) {
          problems.push({ path: at("guardian"), message: "Bitte wähle eine erziehungsberechtigte Person aus oder lege eine an." });
        } else {
          guardianId = Number(box.guardian);
        }
      }
      if (guardianId === null && box.guardian !== "neu" && needsGuardian(child.birthDate, event.dateFrom)) {
        problems.push({ path: at("guardian"), message: `${child.firstName} ist bei Beginn der Freizeit noch nicht 18: Bitte wähle eine erziehungsberechtigte Person.` });
      }
      if (event.tshirtSizeRequired && !box.tshirtSize) problems.push({ path: at("tshirtSize"), message: "Bitte wähle eine T-Shirt-Größe." });
      if (event.swimBadgeRequired && !box.swimBadge) problems.push({ path: at("swimBadge"), message: "Bitte wähle ein Schwimmabzeichen." });
      if (event.permitsRequired) {
        for (const field of ["allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe"] as const) {
          if (!box[field]) problems.push({ path: at(field), message: "Bitte beantworte alle Fragen zu den Erlaubnissen." });
        }
      }
      if (planned.some((p) => p.participantId === child.id)) {
        problems.push({ path: at("participant"), message: `${child.firstName} steht schon in einem anderen Kasten.` });
        return;
      }
      planned.push({ participantId: child.id, firstName: child.firstName, lastName: child.lastName, guardianId, box });
    });

    if (planned.length) {
      const already = tx
        .select({ participantId: registrations.participantId })
        .from(registrations)
        .where(and(eq(registrations.eventId, eventId), inArray(registrations.participantId, planned.map((p) => p.participantId))))
        .all();
      for (const row of already) {
        const index = planned.findIndex((p) => p.participantId === row.participantId);
        problems.push({
          path: `boxes[${request.boxes.indexOf(planned[index].box)}].participant`,
          message: `${planned[index].firstName} ${planned[index].lastName} ist bereits für diese Veranstaltung angemeldet.`,
        });
      }
    }

    // The SEPA mandate: an existing one of this account and event fixes the payment method
    // (the form locks the choice); it can be corrected while nothing is paid. Otherwise a new one.
    const existingMandate = tx
      .select({ id: sepaMandates.id })
      .from(sepaMandates)
      .where(and(eq(sepaMandates.userId, user.id), eq(sepaMandates.eventId, eventId)))
      .get();
    const paymentMethod: PaymentMethod = existingMandate ? "sepa" : request.paymentMethod;
    let sepaMandateId: number | null = null;
    if (existingMandate) {
      sepaMandateId = existingMandate.id;
      if (request.sepa) {
        const paid = tx
          .select({ id: registrations.id })
          .from(registrations)
          .where(and(eq(registrations.sepaMandateId, existingMandate.id), eq(registrations.paid, true)))
          .get();
        if (paid) problems.push({ path: "sepa", message: "Das Mandat ist schon eingezogen und kann nicht mehr geändert werden." });
        else tx.update(sepaMandates).set({ ...request.sepa, updatedAt: new Date() }).where(eq(sepaMandates.id, existingMandate.id)).run();
      }
    } else if (paymentMethod === "sepa") {
      if (request.sepa) {
        sepaMandateId = tx
          .insert(sepaMandates)
          .values({ userId: user.id, eventId, ...request.sepa })
          .returning({ id: sepaMandates.id })
          .get().id;
      } else {
        problems.push({ path: "sepa", message: "Bitte fülle das SEPA-Lastschriftmandat aus." });
      }
    }

    if (problems.length) throw new EnrolmentError(problems);

    // Places: counted under the write lock (BEGIN IMMEDIATE), so no one slips in between.
    let free = event.capacity === null ? Number.POSITIVE_INFINITY : event.capacity - placesTaken(eventId, tx);
    let nextWaiting =
      (tx
        .select({ n: sql<number>`coalesce(max(${registrations.waitingListPosition}), 0)` })
        .from(registrations)
        .where(and(eq(registrations.eventId, eventId), isNotNull(registrations.waitingListPosition)))
        .get()?.n ?? 0) + 1;

    const created: EnrolmentResult["registrations"] = [];
    for (const plan of planned) {
      const box = plan.box;
      tx.update(participants)
        .set({
          tshirtSize: box.tshirtSize ?? sql`${participants.tshirtSize}`,
          swimBadge: box.swimBadge ?? sql`${participants.swimBadge}`,
          specialNeeds: box.specialNeeds || sql`${participants.specialNeeds}`,
          nameOfInsured: box.nameOfInsured || sql`${participants.nameOfInsured}`,
          birthdateOfInsured: box.birthdateOfInsured || sql`${participants.birthdateOfInsured}`,
          updatedAt: new Date(),
        })
        .where(eq(participants.id, plan.participantId))
        .run();
      const waitingListPosition = free > 0 ? null : nextWaiting++;
      if (free > 0) free--;
      const registration = tx
        .insert(registrations)
        .values({
          eventId,
          participantId: plan.participantId,
          userId: user.id,
          guardianId: plan.guardianId,
          referral: request.referral,
          paymentMethod,
          sepaMandateId,
          waitingListPosition,
          allowedToWander: toBool(box.allowedToWander),
          allowedToSwim: toBool(box.allowedToSwim),
          canSwim: toBool(box.canSwim),
          allowedToCanoe: toBool(box.allowedToCanoe),
          submissionKey: request.submissionKey,
        })
        .returning({ id: registrations.id })
        .get();
      tx.insert(registrationHistory).values({ registrationId: registration.id, actorId: user.id, action: "created" }).run();
      created.push({ id: registration.id, firstName: plan.firstName, lastName: plan.lastName, waitingListPosition });
    }

    const account = tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, user.id)).get()!;
    queueMail(tx, confirmationMail(account, event, created, paymentMethod));
    return { registrations: created, paymentMethod, priceCents: event.priceCents, eventTitle: event.title, repeated: false };
  });
}

function confirmationMail(
  account: { email: string; firstName: string },
  event: { id: number; title: string; dateFrom: string; priceCents: number },
  created: EnrolmentResult["registrations"],
  paymentMethod: PaymentMethod,
) {
  const bank = settings().bank;
  const lines = created.map(
    (r) =>
      `- ${r.firstName} ${r.lastName}: ${r.waitingListPosition === null ? "angemeldet" : `Warteliste (Platz ${r.waitingListPosition})`}, ${formatEuro(event.priceCents)}`,
  );
  const payment =
    paymentMethod === "transfer"
      ? [
          "Bitte überweise den Betrag für jede Anmeldung, die einen Platz hat, auf dieses Konto:",
          `Kontoinhaber: ${bank.accountHolder}`,
          `IBAN: ${formatIban(bank.iban)}`,
          `BIC: ${bank.bic}`,
          `Bank: ${bank.name}`,
          ...created
            .filter((r) => r.waitingListPosition === null)
            .map((r) => `Verwendungszweck für ${r.firstName}: ${transferReference(r.id, event.id)}`),
          "Für Plätze auf der Warteliste bitte erst überweisen, wenn wir uns melden.",
        ]
      : ["Der Betrag wird per SEPA-Lastschrift von dem angegebenen Konto eingezogen."];
  return {
    to: account.email,
    subject: `Anmeldung: ${event.title}`,
    text: [
      `Hallo ${account.firstName},`,
      "",
      `vielen Dank für deine Anmeldung zu „${event.title}“ (ab ${formatIsoDate(event.dateFrom)}):`,
      "",
      ...lines,
      "",
      ...payment,
      "",
      "Die Leitung prüft die Anmeldung und bestätigt sie dir. Den Stand siehst du jederzeit auf der Seite der Veranstaltung:",
      `${settings().appUrl}/freizeit/${event.id}`,
    ].join("\n"),
  };
}
