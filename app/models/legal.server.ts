// Legal documents (privacy policy, participation terms, general terms): every uploaded version is
// kept; the current one of each type is served at a stable address and linked where parents
// accept it; each enrolment records which versions it accepted (DECISIONS.md, legal documents
// and consent).
import { and, desc, eq, inArray, max, or, sql } from "drizzle-orm";
import { enrolments, eventHelpers, eventOwners, files, legalDocuments, legalDocumentVersions, registrations, type LegalDocumentType } from "../../db/schema";
import { recordAudit } from "./audit.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";
import type { SessionUser } from "./user.server";
import { db, preparedQuery, writeTransaction, type Queryable } from "~/services/db.server";
import { memoizedPerDatabaseState } from "~/services/memo.server";
import type { StoredFile } from "~/services/uploads.server";

export const LEGAL_TYPES = ["privacy", "participation_terms", "general_terms"] as const satisfies readonly LegalDocumentType[];

/** The spec's names and the stable file names the documents are served under. */
export const LEGAL_DOCUMENTS: Record<LegalDocumentType, { label: string; slug: string; field: string }> = {
  privacy: { label: "Datenschutzerklärung", slug: "datenschutz.pdf", field: "datenschutz" },
  participation_terms: { label: "Teilnahmebedingungen", slug: "teilnahmebedingungen.pdf", field: "teilnahmebedingungen" },
  general_terms: { label: "Allgemeine Geschäftsbedingungen", slug: "agb.pdf", field: "agb" },
};

export function legalTypeOfSlug(slug: string): LegalDocumentType | null {
  return LEGAL_TYPES.find((type) => LEGAL_DOCUMENTS[type].slug === slug) ?? null;
}

export function legalUrl(type: LegalDocumentType) {
  return `/legal/${LEGAL_DOCUMENTS[type].slug}`;
}

export function legalVersionUrl(versionId: number) {
  return `/legal/version/${versionId}`;
}

export type CurrentLegalVersion = {
  type: LegalDocumentType;
  versionId: number;
  version: number;
  fileName: string;
  uploadedAt: Date;
};

/** The newest version of each type that has one, in one query (built once: every enrolment asks). */
const newestVersions = preparedQuery((database) => {
  const newest = database
    .select({ type: legalDocumentVersions.type, version: max(legalDocumentVersions.version).as("newest") })
    .from(legalDocumentVersions)
    .groupBy(legalDocumentVersions.type)
    .as("newest");
  return database
    .select({
      type: legalDocumentVersions.type,
      versionId: legalDocumentVersions.id,
      version: legalDocumentVersions.version,
      fileName: files.displayName,
      uploadedAt: legalDocumentVersions.createdAt,
    })
    .from(legalDocumentVersions)
    .innerJoin(newest, and(eq(newest.type, legalDocumentVersions.type), eq(newest.version, legalDocumentVersions.version)))
    .innerJoin(files, eq(files.id, legalDocumentVersions.fileId))
    .prepare();
});

/** The newest version of each type that has one; inside a transaction, as it sees them. */
export function currentLegalVersions(): Partial<Record<LegalDocumentType, CurrentLegalVersion>> {
  return Object.fromEntries(newestVersions().all().map((row) => [row.type, row]));
}

export type LegalLinks = { privacy: string | null; participationTerms: string | null; generalTerms: string | null };

/** The addresses of the documents that have been uploaded (null: none yet), for the footer and
 * the enrolment form. */
export function currentLegalLinks(database: Queryable = db): LegalLinks {
  const present = new Set(database.select({ type: legalDocuments.type }).from(legalDocuments).all().map((row) => row.type));
  const link = (type: LegalDocumentType) => (present.has(type) ? legalUrl(type) : null);
  return { privacy: link("privacy"), participationTerms: link("participation_terms"), generalTerms: link("general_terms") };
}

/** currentLegalLinks, read once per database state: the root loader of every page shows them. */
export const cachedLegalLinks = memoizedPerDatabaseState(() => currentLegalLinks());

/**
 * Makes stored PDFs the new current versions, in one transaction with their protocol entries;
 * the earlier versions stay. A form sent again with the same key (a double tap) saves nothing
 * and answers with the versions the first made (`repeated`; the caller removes its files).
 */
export function saveLegalVersions(uploads: { type: LegalDocumentType; file: StoredFile }[], actorId: number, submissionKey: string | null = null) {
  return writeTransaction((tx) => {
    const lastVersion = (type: LegalDocumentType) =>
      tx.select({ n: max(legalDocumentVersions.version) }).from(legalDocumentVersions).where(eq(legalDocumentVersions.type, type)).get()?.n ?? 0;
    if (earlierSubmission(tx, submissionKey, actorId)) {
      return { repeated: true, saved: uploads.map(({ type }) => ({ type, version: lastVersion(type) })) };
    }
    const saved = uploads.map(({ type, file }) => {
      const fileId = tx
        .insert(files)
        .values({ key: file.key, displayName: file.displayName, mimeType: file.mimeType, size: file.size, kind: "legal" })
        .returning({ id: files.id })
        .get().id;
      const version = lastVersion(type) + 1;
      const versionId = tx
        .insert(legalDocumentVersions)
        .values({ type, version, fileId, uploadedById: actorId })
        .returning({ id: legalDocumentVersions.id })
        .get().id;
      tx.insert(legalDocuments)
        .values({ type, fileId, uploadedById: actorId })
        .onConflictDoUpdate({ target: legalDocuments.type, set: { fileId, uploadedById: actorId, updatedAt: new Date() } })
        .run();
      recordAudit(tx, {
        actorId,
        action: "legal.uploaded",
        entityType: "legal",
        entityId: versionId,
        details: { document: LEGAL_DOCUMENTS[type].label, version, fileName: file.displayName },
      });
      return { type, version };
    });
    recordSubmission(tx, submissionKey, actorId, "/gott");
    return { repeated: false, saved };
  });
}

/** The file of the current version of a type, for its stable address. */
export function findCurrentLegalFile(type: LegalDocumentType) {
  return (
    db
      .select({ key: files.key, mimeType: files.mimeType, version: legalDocumentVersions.version })
      .from(legalDocumentVersions)
      .innerJoin(files, eq(files.id, legalDocumentVersions.fileId))
      .where(eq(legalDocumentVersions.type, type))
      .orderBy(desc(legalDocumentVersions.version))
      .limit(1)
      .get() ?? null
  );
}

/**
 * The file of one version, for admins, and for the lead persons and the camp team of an event
 * with an enrolment that accepted it (so the terms a parent accepted can be read later).
 */
export function findLegalVersionFile(versionId: number, user: SessionUser) {
  if (!Number.isSafeInteger(versionId) || versionId <= 0) return null;
  const row = db
    .select({ key: files.key, type: legalDocumentVersions.type, version: legalDocumentVersions.version })
    .from(legalDocumentVersions)
    .innerJoin(files, eq(files.id, legalDocumentVersions.fileId))
    .where(eq(legalDocumentVersions.id, versionId))
    .get();
  if (!row) return null;
  if (user.role === "admin") return row;
  const staff = db
    .select({ one: sql<number>`1` })
    .from(enrolments)
    .where(
      and(
        or(eq(enrolments.termsVersionId, versionId), eq(enrolments.privacyVersionId, versionId)),
        or(
          sql`exists (select 1 from ${eventOwners} where ${eventOwners.eventId} = ${enrolments.eventId} and ${eventOwners.userId} = ${user.id})`,
          sql`exists (select 1 from ${eventHelpers} where ${eventHelpers.eventId} = ${enrolments.eventId} and ${eventHelpers.userId} = ${user.id} and ${eventHelpers.status} = 'accepted')`,
        ),
      ),
    )
    .limit(1)
    .get();
  return staff ? row : null;
}

/**
 * Proof of consent: records on the enrolment the current versions of the participation terms and
 * of the privacy policy, which the form linked, and the time. Called inside the enrolment's
 * transaction.
 */
const setConsent = preparedQuery((database) =>
  database
    .update(enrolments)
    .set({ termsVersionId: sql`${sql.placeholder("terms")}`, privacyVersionId: sql`${sql.placeholder("privacy")}`, consentedAt: sql`${sql.placeholder("at")}` })
    .where(eq(enrolments.id, sql.placeholder("id")))
    .prepare(),
);

/** Records on the enrolment which terms and privacy versions it accepted; inside its transaction. */
export function recordLegalConsent(enrolmentId: number, now = new Date()) {
  const current = currentLegalVersions();
  setConsent().run({
    id: enrolmentId,
    terms: current.participation_terms?.versionId ?? null,
    privacy: current.privacy?.versionId ?? null,
    at: now.getTime(),
  });
}

export type AcceptedDocument = { label: string; version: number; url: string };
export type EnrolmentConsent = { consentedAt: Date | null; documents: AcceptedDocument[] };

/** What the enrolments accepted (for the registration detail), in one query for all of them. */
export function consentOfEnrolments(enrolmentIds: number[]): Map<number, EnrolmentConsent> {
  const result = new Map<number, EnrolmentConsent>();
  if (enrolmentIds.length === 0) return result;
  const rows = db
    .select({
      enrolmentId: enrolments.id,
      consentedAt: enrolments.consentedAt,
      versionId: legalDocumentVersions.id,
      type: legalDocumentVersions.type,
      version: legalDocumentVersions.version,
    })
    .from(enrolments)
    .leftJoin(
      legalDocumentVersions,
      or(eq(legalDocumentVersions.id, enrolments.termsVersionId), eq(legalDocumentVersions.id, enrolments.privacyVersionId)),
    )
    .where(inArray(enrolments.id, enrolmentIds))
    .orderBy(enrolments.id, legalDocumentVersions.type)
    .all();
  for (const row of rows) {
    const entry = result.get(row.enrolmentId) ?? { consentedAt: row.consentedAt, documents: [] };
    if (row.versionId !== null && row.type !== null && row.version !== null) {
      entry.documents.push({ label: LEGAL_DOCUMENTS[row.type].label, version: row.version, url: legalVersionUrl(row.versionId) });
    }
    result.set(row.enrolmentId, entry);
  }
  return result;
}

/** What the enrolment of one registration accepted (for its detail page); null when the
 * registration belongs to no enrolment. One query. */
export function consentOfRegistration(registrationId: number): EnrolmentConsent | null {
  const rows = db
    .select({
      consentedAt: enrolments.consentedAt,
      versionId: legalDocumentVersions.id,
      type: legalDocumentVersions.type,
      version: legalDocumentVersions.version,
    })
    .from(registrations)
    .innerJoin(enrolments, eq(enrolments.id, registrations.enrolmentId))
    .leftJoin(
      legalDocumentVersions,
      or(eq(legalDocumentVersions.id, enrolments.termsVersionId), eq(legalDocumentVersions.id, enrolments.privacyVersionId)),
    )
    .where(eq(registrations.id, registrationId))
    .orderBy(legalDocumentVersions.type)
    .all();
  if (rows.length === 0) return null;
  return {
    consentedAt: rows[0].consentedAt,
    documents: rows.flatMap((row) =>
      row.versionId !== null && row.type !== null && row.version !== null
        ? [{ label: LEGAL_DOCUMENTS[row.type].label, version: row.version, url: legalVersionUrl(row.versionId) }]
        : [],
    ),
  };
}
