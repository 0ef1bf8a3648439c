// Legal documents: PDFs recognised from their content, every version kept, the current one at
// its stable address, earlier ones for staff whose enrolments accepted them.
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, enrolments, files, legalDocuments, legalDocumentVersions, participants, registrations } from "../../db/schema";
import { currentLegalLinks, recordLegalConsent, consentOfEnrolments } from "~/models/legal.server";
import { action as enrollAction, loader as enrollLoader } from "~/routes/enroll.$eventId";
import { loader as detailLoader } from "~/routes/freizeit.participants.participant-details.$registrationID";
import { action, loader as panelLoader } from "~/routes/gott";
import { takeFlash } from "~/services/flash.server";
import { loader as documentLoader } from "~/routes/legal.$document";
import { loader as versionLoader } from "~/routes/legal.version.$versionId";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { DISK_LOW } from "~/services/disk-space.server";
import { FORM_FIELD_TOO_LONG, FORM_UNREADABLE } from "~/services/form.server";
import { inPanelWords } from "~/services/legal-form.server";
import { SAVE_FAILED } from "~/services/upload-types.server";
import { createEvent, executableBytes, multipartPost, type Upload } from "../support/events";
import { createUser, resetDatabase, sessionCookieFor } from "../support/fixtures";
import { body, cookieFrom, get, post, run } from "../support/remix";

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
const legalFolder = () => path.join(settings().uploadsDir, "legal");
const storedFiles = () => (existsSync(legalFolder()) ? readdirSync(legalFolder()) : []);

let adminCookie: string;
let adminId: number;
beforeEach(async () => {
  resetDatabase();
  rmSync(settings().uploadsDir, { recursive: true, force: true });
  const admin = await createUser({ role: "admin" });
  adminId = admin.id;
  adminCookie = await sessionCookieFor(admin.id);
});

function upload(documents: Record<string, Upload[]>, cookie = adminCookie) {
  return run(action, multipartPost("/gott?tab=benutzer", { intent: "legal" }, documents, cookie));
}

async function served(slug: string) {
  const response = await run(documentLoader, { ...get(`/legal/${slug}`), params: { document: slug } });
  return { response, text: response.status === 200 ? Buffer.from(await response.arrayBuffer()).toString("latin1") : "" };
}

type Failure = { legal: { title: string; messages: Record<string, string> } };

describe("uploading", () => {
  it("takes the three PDFs, serves them at their stable addresses and keeps earlier versions", async () => {
    expect((await served("datenschutz.pdf")).response.status).toBe(404);
    expect(currentLegalLinks()).toEqual({ privacy: null, participationTerms: null, generalTerms: null });
    const response = await upload({
      datenschutz: [{ name: "Datenschutz 2026.pdf", bytes: pdf("Datenschutz eins"), type: "application/pdf" }],
      teilnahmebedingungen: [{ name: "TB.pdf", bytes: pdf("Teilnahme eins") }],
      agb: [{ name: "AGB.pdf", bytes: pdf("AGB eins") }],
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/gott?tab=benutzer");
    expect(cookieFrom(response, "lf_flash")).toBeDefined();
    expect(currentLegalLinks()).toEqual({ privacy: "/legal/datenschutz.pdf", participationTerms: "/legal/teilnahmebedingungen.pdf", generalTerms: "/legal/agb.pdf" });
    for (const [slug, text] of [["datenschutz.pdf", "Datenschutz eins"], ["teilnahmebedingungen.pdf", "Teilnahme eins"], ["agb.pdf", "AGB eins"]]) {
      const { response: file, text: content } = await served(slug);
      expect(file.status).toBe(200);
      expect(file.headers.get("Content-Type")).toBe("application/pdf");
      expect(content).toContain(text);
    }
    expect((await served("datenschutz.pdf")).response.headers.get("Content-Disposition")).toContain("Datenschutzerkl");

    // A new privacy policy: served from now on, the first one kept.
    expect((await upload({ datenschutz: [{ name: "Datenschutz 2027.pdf", bytes: pdf("Datenschutz zwei") }] })).status).toBe(302);
    expect((await served("datenschutz.pdf")).text).toContain("Datenschutz zwei");
    const versions = db.select().from(legalDocumentVersions).orderBy(legalDocumentVersions.id).all();
    expect(versions.map((v) => [v.type, v.version, v.uploadedById])).toEqual([
      ["privacy", 1, adminId],
      ["participation_terms", 1, adminId],
      ["general_terms", 1, adminId],
      ["privacy", 2, adminId],
    ]);
    expect(storedFiles()).toHaveLength(4);
    expect(db.select().from(legalDocuments).all()).toHaveLength(3);
    expect(db.select({ action: auditLog.action }).from(auditLog).all().map((a) => a.action)).toEqual(Array(4).fill("legal.uploaded"));
    // The first version stays readable for admins.
    const old = await run(versionLoader, { ...get(`/legal/version/${versions[0].id}`, { cookie: adminCookie }), params: { versionId: String(versions[0].id) } });
    expect(old.status).toBe(200);
    expect(Buffer.from(await old.arrayBuffer()).toString("latin1")).toContain("Datenschutz eins");
  });

  it("saves a form sent twice (a double tap) once: one version, the second copy not kept, the same answer", async () => {
    const page = await body<{ legalKey: string }>(await run(panelLoader, get("/gott", { cookie: adminCookie })));
    expect(page.legalKey).toMatch(/^[\w-]{16,64}$/);
    const send = () =>
      run(action, multipartPost("/gott", { intent: "legal", submissionKey: page.legalKey }, { agb: [{ name: "AGB.pdf", bytes: pdf("AGB eins") }] }, adminCookie));
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(db.select().from(legalDocumentVersions).all()).toHaveLength(1);
    expect(storedFiles()).toHaveLength(1);
    for (const answer of [first, second]) {
      const flash = await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookieFrom(answer, "lf_flash")! } }));
      expect(flash?.flash).toMatchObject({ title: "Upload erfolgt", message: "Allgemeine Geschäftsbedingungen (Version 1)" });
    }
    expect((await body<{ legalKey: string }>(await run(panelLoader, get("/gott", { cookie: adminCookie })))).legalKey).not.toBe(page.legalKey);
  });

  const NO_PDF = "Bitte lade eine PDF-Datei hoch.";
  const FORGED: [string, Upload, string][] = [
    ["a renamed executable", { name: "agb.pdf", bytes: executableBytes(), type: "application/pdf" }, NO_PDF],
    ["an HTML file named .pdf", { name: "agb.pdf", bytes: Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"), type: "application/pdf" }, NO_PDF],
    ["a PNG picture", { name: "agb.pdf", bytes: Buffer.from("89504e470d0a1a0a0000000d49484452", "hex") }, NO_PDF],
    ["an empty file", { name: "agb.pdf", bytes: Buffer.alloc(0) }, "Die Datei agb.pdf ist leer."],
  ];
  for (const [what, file, message] of FORGED) {
    it(`refuses ${what} and stores nothing, not even the good file beside it`, async () => {
      const response = await upload({ datenschutz: [{ name: "ds.pdf", bytes: pdf("gut") }], agb: [file] });
      expect(response.status).toBe(400);
      const answer = await body<Failure>(response);
      expect(answer.legal.title).toBe("Upload fehlgeschlagen");
      expect(answer.legal.messages.agb).toBe(message);
      expect(db.select().from(legalDocumentVersions).all()).toEqual([]);
      expect(db.select().from(files).all()).toEqual([]);
      expect(storedFiles()).toEqual([]);
      expect((await served("agb.pdf")).response.status).toBe(404);
    });
  }

  it("names every document that is no PDF in one answer (forms' audit)", async () => {
    const response = await upload({ datenschutz: [{ name: "ds.docx", bytes: executableBytes() }], agb: [{ name: "agb.docx", bytes: executableBytes() }] });
    expect(response.status).toBe(400);
    const answer = await body<Failure>(response);
    expect(answer.legal.messages).toEqual({ datenschutz: "Bitte lade eine PDF-Datei hoch.", agb: "Bitte lade eine PDF-Datei hoch." });
    expect(storedFiles()).toEqual([]);
  });

  // The admin panel speaks 'du' (its user administration: "Du kannst dich nicht selbst
  // deaktivieren."); its documents said 'Sie' on the same screen (texts' audit).
  it("speaks 'du', as the rest of the admin panel, also in the upload's shared refusals", () => {
    expect(inPanelWords(SAVE_FAILED)).toBe("Die Datei konnte nicht gespeichert werden. Bitte versuche es später erneut.");
    expect(inPanelWords(DISK_LOW)).toBe("Auf dem Server ist kaum noch Speicherplatz frei, deshalb wurde die Datei nicht gespeichert. Bitte wende dich an die Person, die den Server betreut.");
    expect(inPanelWords(FORM_UNREADABLE)).toBe("Das Formular konnte nicht gelesen werden. Bitte versuche es erneut.");
    expect(inPanelWords(FORM_FIELD_TOO_LONG)).toBe("Ein Feld des Formulars ist zu lang. Bitte kürze deine Eingaben und versuche es erneut.");
    expect(inPanelWords("Die Datei agb.pdf ist leer.")).toBe("Die Datei agb.pdf ist leer.");
  });

  it("asks for a file when none was chosen, and for one file per document", async () => {
    const none = await upload({});
    expect(none.status).toBe(400);
    expect((await body<Failure>(none)).legal.messages[""]).toBe("Bitte wähle mindestens eine PDF-Datei aus.");
    const two = await upload({ agb: [{ name: "a.pdf", bytes: pdf("a") }, { name: "b.pdf", bytes: pdf("b") }] });
    expect(two.status).toBe(400);
    expect((await body<Failure>(two)).legal.messages.agb).toBe("Bitte wähle je Dokument nur eine Datei aus.");
    expect(storedFiles()).toEqual([]);
  });

  it("answers 404 for any other document name", async () => {
    for (const slug of ["impressum.pdf", "datenschutz", "../agb.pdf", ""]) {
      expect((await served(slug)).response.status).toBe(404);
    }
  });
});

describe("an earlier version", () => {
  it("is readable for the staff of an event whose enrolment accepted it, for nobody else", async () => {
    await upload({ teilnahmebedingungen: [{ name: "tb1.pdf", bytes: pdf("Teilnahme eins") }], datenschutz: [{ name: "ds1.pdf", bytes: pdf("ds eins") }] });
    const lead = await createUser();
    const helper = await createUser();
    const parent = await createUser();
    const stranger = await createUser();
    const event = createEvent({ ownerIds: [lead.id], helpers: [[helper.id, "accepted"], [stranger.id, "pending"]] });
    const enrolmentId = db
      .insert(enrolments)
      .values({ eventId: event.id, userId: parent.id, submissionKey: "k1", reference: "LF-1", paymentMethod: "transfer" })
      .returning()
      .get().id;
    const at = new Date("2026-03-01T10:00:00Z");
    recordLegalConsent(enrolmentId, at);
    await upload({ teilnahmebedingungen: [{ name: "tb2.pdf", bytes: pdf("Teilnahme zwei") }] });

    const row = db.select().from(enrolments).where(eq(enrolments.id, enrolmentId)).get()!;
    const versions = db.select().from(legalDocumentVersions).all();
    const terms1 = versions.find((v) => v.type === "participation_terms" && v.version === 1)!;
    expect(row).toMatchObject({ termsVersionId: terms1.id, privacyVersionId: versions.find((v) => v.type === "privacy")!.id, consentedAt: at });
    expect(consentOfEnrolments([enrolmentId]).get(enrolmentId)).toEqual({
      consentedAt: at,
      documents: [
        { label: "Teilnahmebedingungen", version: 1, url: `/legal/version/${terms1.id}` },
        { label: "Datenschutzerklärung", version: 1, url: `/legal/version/${row.privacyVersionId}` },
      ],
    });

    const asUser = async (userId: number | null) =>
      (await run(versionLoader, { ...get(`/legal/version/${terms1.id}`, userId ? { cookie: await sessionCookieFor(userId) } : {}), params: { versionId: String(terms1.id) } })).status;
    expect(await asUser(lead.id)).toBe(200);
    expect(await asUser(helper.id)).toBe(200);
    expect(await asUser(parent.id)).toBe(404);
    expect(await asUser(stranger.id)).toBe(404);
    expect(await asUser(null)).toBe(302);
    const terms2 = versions.find((v) => v.type === "participation_terms" && v.version === 2)!;
    const unreferenced = await run(versionLoader, { ...get(`/legal/version/${terms2.id}`, { cookie: await sessionCookieFor(lead.id) }), params: { versionId: String(terms2.id) } });
    expect(unreferenced.status).toBe(404);
  });
});

describe("proof of consent", () => {
  it("each enrolment records the versions of the participation terms and the privacy policy its form linked, and when", async () => {
    const parent = await createUser();
    const cookie = await sessionCookieFor(parent.id);
    const camp = createEvent();
    const adult = (firstName: string) =>
      db.insert(participants).values({ userId: parent.id, firstName, lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2000-01-01" }).returning().get();
    const enrol = async (childId: number) => {
      const fields = { submissionKey: `schluessel-${Date.now()}-${childId}`, referral: "", paymentMethod: "transfer", terms: "on", intent: "submit", "boxes[0].participant": String(childId) };
      const response = await run(enrollAction, post(`/enroll/${camp.id}`, fields, { cookie, params: { eventId: String(camp.id) } }));
      if (response.status !== 302) throw new Error(await response.text());
      return db.select().from(enrolments).orderBy(enrolments.id).all().at(-1)!;
    };
    const form = async () =>
      body<{ termsUrl: string; privacyUrl: string }>(await run(enrollLoader, get(`/enroll/${camp.id}`, { cookie, params: { eventId: String(camp.id) } })));

    // Nothing uploaded yet: the association's pages, and nothing to record.
    expect(await form()).toMatchObject({ termsUrl: settings().links.downloads, privacyUrl: settings().links.privacy });
    expect(await enrol(adult("Anna").id)).toMatchObject({ termsVersionId: null, privacyVersionId: null });

    await upload({ teilnahmebedingungen: [{ name: "tb1.pdf", bytes: pdf("tb eins") }], datenschutz: [{ name: "ds1.pdf", bytes: pdf("ds eins") }] });
    expect(await form()).toMatchObject({ termsUrl: "/legal/teilnahmebedingungen.pdf", privacyUrl: "/legal/datenschutz.pdf" });
    const before = Date.now();
    const first = await enrol(adult("Ben").id);
    const version = (type: string, n: number) => db.select().from(legalDocumentVersions).all().find((v) => v.type === type && v.version === n)!.id;
    expect(first).toMatchObject({ termsVersionId: version("participation_terms", 1), privacyVersionId: version("privacy", 1) });
    expect(first.consentedAt!.getTime()).toBeGreaterThanOrEqual(before);

    await upload({ teilnahmebedingungen: [{ name: "tb2.pdf", bytes: pdf("tb zwei") }] });
    expect(await enrol(adult("Cem").id)).toMatchObject({ termsVersionId: version("participation_terms", 2), privacyVersionId: version("privacy", 1) });
    // The earlier enrolment keeps what it accepted.
    expect(db.select().from(enrolments).where(eq(enrolments.id, first.id)).get()).toMatchObject({ termsVersionId: version("participation_terms", 1) });
    // The registration's detail shows it, with links to the accepted versions.
    const detail = async (enrolmentId: number) => {
      const registration = db.select().from(registrations).where(eq(registrations.enrolmentId, enrolmentId)).get()!;
      const params = { registrationID: String(registration.id) };
      const url = `/freizeit/participants/participant-details/${registration.id}`;
      return (await body<{ consent: unknown }>(await run(detailLoader, get(url, { cookie: adminCookie, params })))).consent;
    };
    expect(await detail(first.id)).toEqual({
      consentedAt: first.consentedAt!.toISOString(),
      documents: [
        { label: "Teilnahmebedingungen", version: 1, url: `/legal/version/${version("participation_terms", 1)}` },
        { label: "Datenschutzerklärung", version: 1, url: `/legal/version/${version("privacy", 1)}` },
      ],
    });
    expect(await detail(db.select().from(enrolments).orderBy(enrolments.id).all()[0].id)).toMatchObject({ documents: [] });
  });
});
