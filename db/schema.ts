// The whole data model of Lagerfeuer. Names follow DECISIONS.md: English in the code, the
// spec's German terms in comments where the mapping is not obvious.
import { relations, sql } from "drizzle-orm";
import {
  blob,
  check,
  foreignKey,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

export * from "../app/lib/enums";
import {
  APPLICATION_STATUSES,
  EVENT_MAIL_AUDIENCES,
  FILE_KINDS,
  HELPER_STATUSES,
  LEGAL_DOCUMENT_TYPES,
  MAIL_STATUSES,
  PAYMENT_METHODS,
  REGISTRATION_ACTIONS,
  ROLES,
  SWIM_BADGES,
  TOKEN_PURPOSES,
  TSHIRT_SIZES,
} from "../app/lib/enums";

/** `column IN ('a','b')` for a CHECK constraint built from one of the enumerations above. */
function oneOf(column: string, values: readonly string[]) {
  return sql.raw(`${column} IN (${values.map((v) => `'${v}'`).join(", ")})`);
}

/**
 * A name in German dictionary order (DIN 5007-1: umlauts as their base letter, ß as ss), case
 * folded. Literals, not parameters: the user list sorts by exactly this expression, and SQLite
 * reads it from the index of the same expression (users_role_name_order_idx) only when it matches.
 */
export function germanNameOrder(column: unknown) {
  let expression = sql`${column}`;
  for (const [from, to] of [["Ä", "A"], ["ä", "a"], ["Ö", "O"], ["ö", "o"], ["Ü", "U"], ["ü", "u"], ["ß", "ss"]]) {
    expression = sql`replace(${expression}, ${sql.raw(`'${from}'`)}, ${sql.raw(`'${to}'`)})`;
  }
  return sql`${expression} collate nocase`;
}

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsecond') * 1000 AS INTEGER))`);
const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsecond') * 1000 AS INTEGER))`)
    .$onUpdate(() => new Date());
const bool = (name: string) => integer(name, { mode: "boolean" });

// ---------------------------------------------------------------------------------------------
// Accounts

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Stored lower-case: addresses are compared case-insensitively, one account per address. */
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    banned: bool("banned").notNull().default(false),
    emailConfirmedAt: integer("email_confirmed_at", { mode: "timestamp_ms" }),
    /** Helper checks (DECISIONS.md): the day an extended police certificate (erweitertes
     * Führungszeugnis, §72a SGB VIII) was inspected, YYYY-MM-DD, and who inspected it. Never a copy. */
    policeCertificateCheckedOn: text("police_certificate_checked_on"),
    policeCertificateCheckedBy: text("police_certificate_checked_by"),
    /** Juleica (youth leader card): number and last valid day, YYYY-MM-DD. */
    juleicaNumber: text("juleica_number"),
    juleicaExpiresOn: text("juleica_expires_on"),
    /** The day the checks above were last saved, YYYY-MM-DD (null without any): a record of
     * someone who is no accepted helper goes three months after it (DECISIONS.md). */
    helperChecksRecordedOn: text("helper_checks_recorded_on"),
    /** A phone number for the camp sheet (helpers), entered by admins with the checks. */
    phone: text("phone"),
    /** SHA-256 of the secret of the personal calendar feed ('Meine Veranstaltungen'); null: none yet. */
    calendarTokenHash: text("calendar_token_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_calendar_token_unique").on(t.calendarTokenHash),
    // The admin's user list: one role, in German name order, a page at a time, without sorting.
    index("users_role_name_order_idx").on(t.role, germanNameOrder(t.lastName), sql`${t.firstName} collate nocase`, t.id),
    check("users_role_check", oneOf("role", ROLES)),
    check("users_email_lower_check", sql`email = lower(email)`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the random id kept in the cookie: a leaked database holds no usable session. */
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * A form sent after its session had run out (the enrolment form), kept for the login that follows
 * (decision 0020): sealed with a key only the sending browser holds (a cookie), for one hour, for
 * the account whose session it was.
 */
export const parkedForms = sqliteTable(
  "parked_forms",
  {
    /** SHA-256 of the random id kept in the browser's cookie with the key. */
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The address the form was sent to; only its page takes it back. */
    path: text("path").notNull(),
    /** AES-256-GCM: the nonce, the tag and the encrypted form fields. */
    sealed: blob("sealed", { mode: "buffer" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("parked_forms_user_idx").on(t.userId), index("parked_forms_expires_idx").on(t.expiresAt)],
);

/** Single-use links: e-mail confirmation, password reset and e-mail change. */
export const userTokens = sqliteTable(
  "user_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: TOKEN_PURPOSES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address an e-mail change switches to once the link is opened. */
    newEmail: text("new_email"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_tokens_hash_unique").on(t.tokenHash),
    index("user_tokens_user_idx").on(t.userId, t.purpose),
    check("user_tokens_purpose_check", oneOf("purpose", TOKEN_PURPOSES)),
  ],
);

/** Failed and successful sign-ins, kept so that brute-force limits survive a restart. */
export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    clientKey: text("client_key").notNull(),
    succeeded: bool("succeeded").notNull(),
    /** Hash of the device mark's nonce when the attempt came with a valid mark for this address
     * (OWASP device cookies); such failures count only against that mark. */
    deviceKey: text("device_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_attempts_email_idx").on(t.email, t.createdAt),
    index("login_attempts_client_idx").on(t.clientKey, t.createdAt),
    index("login_attempts_device_idx").on(t.deviceKey, t.createdAt),
  ],
);

/** Sign-ups and address changes per client: each tells whether an address has an account and the
 * sign-up hashes a password, so their number is limited (models/address-checks.server.ts). */
export const addressChecks = sqliteTable(
  "address_checks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    clientKey: text("client_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("address_checks_client_idx").on(t.clientKey, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Events (Freizeit / Veranstaltung)

export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** Local calendar date (Europe/Berlin), YYYY-MM-DD. */
    dateFrom: text("date_from").notNull(),
    dateTo: text("date_to"),
    /** Local wall-clock time, HH:MM. */
    timeFrom: text("time_from").notNull(),
    timeTo: text("time_to"),
    /** acceptAnmeldungenTo: last day for registrations, YYYY-MM-DD. */
    registrationDeadline: text("registration_deadline"),
    /** dateFrom + timeFrom in Europe/Berlin as an instant; 'past' and sorting use it. */
    startsAt: integer("starts_at", { mode: "timestamp_ms" }).notNull(),
    location: text("location").notNull(),
    priceCents: integer("price_cents").notNull().default(0),
    /** geschwisterRabatt: the spec's free text, shown as it is. */
    siblingDiscount: text("sibling_discount").notNull().default(""),
    /** The amount in cents taken off for each further child of the same account (0: none). */
    siblingDiscountCents: integer("sibling_discount_cents").notNull().default(0),
    /** memberRules: who may take part. */
    memberRules: text("member_rules").notNull().default(""),
    /** isOnlyMAVisible */
    onlyStaffVisible: bool("only_staff_visible").notNull().default(false),
    requiresApplication: bool("requires_application").notNull().default(true),
    tshirtSizeRequired: bool("tshirt_size_required").notNull().default(false),
    swimBadgeRequired: bool("swim_badge_required").notNull().default(false),
    permitsRequired: bool("permits_required").notNull().default(false),
    /** Places; null means unlimited (DECISIONS.md, capacity and waiting list). */
    capacity: integer("capacity"),
    /** How long a place offered to the waiting list is held, in hours (6 to 168). */
    offerHours: integer("offer_hours").notNull().default(48),
    /** When the lead persons got the helper-check mail (30 days before the start); null: not yet. */
    helperCheckReminderSentAt: integer("helper_check_reminder_sent_at", { mode: "timestamp_ms" }),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("events_starts_at_idx").on(t.startsAt),
    index("events_date_title_idx").on(t.dateFrom, t.title),
    check("events_capacity_check", sql`capacity IS NULL OR capacity > 0`),
    check("events_offer_hours_check", sql`offer_hours BETWEEN 6 AND 168`),
    check("events_price_check", sql`price_cents >= 0`),
    check("events_sibling_discount_check", sql`sibling_discount_cents >= 0`),
    check("events_date_order_check", sql`date_to IS NULL OR date_to >= date_from`),
  ],
);

/** Leitung: the lead persons of an event. */
export const eventOwners = sqliteTable(
  "event_owners",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index("event_owners_user_idx").on(t.userId)],
);

/** Helfer*innen / Mitarbeiter*innen and their application status. */
export const eventHelpers = sqliteTable(
  "event_helpers",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: HELPER_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.userId] }),
    index("event_helpers_user_idx").on(t.userId, t.status),
    index("event_helpers_event_status_idx").on(t.eventId, t.status),
    check("event_helpers_status_check", oneOf("status", HELPER_STATUSES)),
  ],
);

/** Uploaded files: preview pictures, attachments, legal documents, e-mail attachments. */
export const files = sqliteTable(
  "files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Generated name on disk below UPLOADS_DIR; used in URLs. */
    key: text("key").notNull(),
    /** The name people see and download under. */
    displayName: text("display_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    kind: text("kind", { enum: FILE_KINDS }).notNull(),
    eventId: integer("event_id").references(() => events.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("files_key_unique").on(t.key),
    index("files_event_kind_idx").on(t.eventId, t.kind, t.position),
    uniqueIndex("files_one_preview_per_event").on(t.eventId).where(sql`kind = 'preview'`),
    check("files_kind_check", oneOf("kind", FILE_KINDS)),
    check("files_size_check", sql`size >= 0`),
  ],
);

export const legalDocuments = sqliteTable(
  "legal_documents",
  {
    type: text("type", { enum: LEGAL_DOCUMENT_TYPES }).primaryKey(),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "restrict" }),
    uploadedById: integer("uploaded_by_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [check("legal_documents_type_check", oneOf("type", LEGAL_DOCUMENT_TYPES))],
);

/** Every uploaded version of a legal document, kept (DECISIONS.md, legal documents and consent);
 * `legal_documents` points to the current file of each type. */
export const legalDocumentVersions = sqliteTable(
  "legal_document_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type", { enum: LEGAL_DOCUMENT_TYPES }).notNull(),
    /** 1, 2, 3 … per type. */
    version: integer("version").notNull(),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "restrict" }),
    uploadedById: integer("uploaded_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("legal_document_versions_type_version_unique").on(t.type, t.version),
    uniqueIndex("legal_document_versions_file_unique").on(t.fileId),
    check("legal_document_versions_type_check", oneOf("type", LEGAL_DOCUMENT_TYPES)),
    check("legal_document_versions_version_check", sql`version > 0`),
  ],
);

/** Gruppen of an event; participants and helpers are sorted into them. */
export const eventGroups = sqliteTable(
  "event_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("event_groups_event_name_unique").on(t.eventId, t.name),
    // Target of the composite keys in group_members: a group can only hold people of its event.
    uniqueIndex("event_groups_event_id_unique").on(t.eventId, t.id),
  ],
);

// ---------------------------------------------------------------------------------------------
// Families: participants (Teilnehmer*innen) and guardians (Erziehungsberechtigte) of an account

export const participants = sqliteTable(
  "participants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    street: text("street").notNull(),
    postalCode: text("postal_code"),
    city: text("city").notNull(),
    /** YYYY-MM-DD */
    birthDate: text("birth_date").notNull(),
    /** muncipality (Kreis) */
    municipality: text("municipality").notNull().default(""),
    amtsverwaltung: text("amtsverwaltung").notNull().default(""),
    tshirtSize: text("tshirt_size", { enum: TSHIRT_SIZES }),
    swimBadge: text("swim_badge", { enum: SWIM_BADGES }),
    specialNeeds: text("special_needs").notNull().default(""),
    nameOfInsured: text("name_of_insured").notNull().default(""),
    birthdateOfInsured: text("birthdate_of_insured"),
    /** The latest permission answers: only defaults for the next enrolment. */
    allowedToWander: bool("allowed_to_wander"),
    allowedToSwim: bool("allowed_to_swim"),
    canSwim: bool("can_swim"),
    allowedToCanoe: bool("allowed_to_canoe"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("participants_user_idx").on(t.userId, t.lastName, t.firstName),
    check("participants_tshirt_check", sql`tshirt_size IS NULL OR ${oneOf("tshirt_size", TSHIRT_SIZES)}`),
    check("participants_swim_check", sql`swim_badge IS NULL OR ${oneOf("swim_badge", SWIM_BADGES)}`),
  ],
);

export const guardians = sqliteTable(
  "guardians",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    street: text("street").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    city: text("city").notNull().default(""),
    email: text("email").notNull().default(""),
    mobilePhone: text("mobile_phone").notNull().default(""),
    phone: text("phone").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("guardians_user_idx").on(t.userId, t.lastName, t.firstName)],
);

/** Comments of leaders on a participant, in the context of an event. */
export const comments = sqliteTable(
  "comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id, { onDelete: "cascade" }),
    // A comment is about a participant at an event: it goes with the event (DECISIONS.md
    // 'Keeping children's data'); one without its event would be kept for ever.
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    text: text("text").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("comments_participant_idx").on(t.participantId, t.createdAt), index("comments_event_idx").on(t.eventId)],
);

/** SEPA-Lastschriftmandat for a one-time debit: one per account and event. */
export const sepaMandates = sqliteTable(
  "sepa_mandates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    street: text("street").notNull(),
    postalCode: text("postal_code").notNull(),
    city: text("city").notNull(),
    /** Electronic format: upper case, no spaces. */
    iban: text("iban").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("sepa_mandates_user_event_unique").on(t.userId, t.eventId),
    index("sepa_mandates_event_idx").on(t.eventId),
  ],
);

/**
 * One submission of the enrolment form: one payment (one transfer reference, one total) for all
 * the children it enrolled (DECISIONS.md, one enrolment, one payment).
 */
export const enrolments = sqliteTable(
  "enrolments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Idempotency key of the form submission: a repeat finds this enrolment. */
    submissionKey: text("submission_key").notNull(),
    /** Verwendungszweck of the bank transfer; identifies the enrolment on bank statements. */
    reference: text("reference").notNull(),
    paymentMethod: text("payment_method", { enum: PAYMENT_METHODS }).notNull(),
    /** Proof of consent: the versions of the participation terms and of the privacy policy
     * accepted with this enrolment, and when (null: none had been uploaded yet). */
    termsVersionId: integer("terms_version_id").references(() => legalDocumentVersions.id, { onDelete: "restrict" }),
    privacyVersionId: integer("privacy_version_id").references(() => legalDocumentVersions.id, { onDelete: "restrict" }),
    consentedAt: integer("consented_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("enrolments_terms_version_idx").on(t.termsVersionId),
    index("enrolments_privacy_version_idx").on(t.privacyVersionId),
    uniqueIndex("enrolments_submission_unique").on(t.userId, t.eventId, t.submissionKey),
    uniqueIndex("enrolments_reference_unique").on(t.reference),
    index("enrolments_event_idx").on(t.eventId),
    check("enrolments_payment_method_check", oneOf("payment_method", PAYMENT_METHODS)),
  ],
);

/** Anmeldung: one participant enrolled for one event. */
export const registrations = sqliteTable(
  "registrations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id, { onDelete: "cascade" }),
    /** The account that enrolled the participant. */
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    guardianId: integer("guardian_id").references(() => guardians.id, { onDelete: "set null" }),
    /** howHaveYouHeardOfUs */
    referral: text("referral").notNull().default(""),
    paymentMethod: text("payment_method", { enum: PAYMENT_METHODS }).notNull(),
    sepaMandateId: integer("sepa_mandate_id").references(() => sepaMandates.id, { onDelete: "set null" }),
    paid: bool("paid").notNull().default(false),
    applicationStatus: text("application_status", { enum: APPLICATION_STATUSES }).notNull().default("open"),
    /** Null: holds a place. A number: on the waiting list, in order of arrival. */
    waitingListPosition: integer("waiting_list_position"),
    /**
     * Set while a freed place is offered to this waiting registration: the offer holds the place
     * until then (DECISIONS.md, waiting list moves by itself).
     */
    offerExpiresAt: integer("offer_expires_at", { mode: "timestamp_ms" }),
    /**
     * The offer's own end (made + offer time), which a start moved earlier cuts short: a start
     * moved later again gives the offer its time back up to here. Null: not known (older offers).
     */
    offerOwnEnd: integer("offer_own_end", { mode: "timestamp_ms" }),
    /** The four permission answers given for this event (null: not asked or not answered). */
    allowedToWander: bool("allowed_to_wander"),
    allowedToSwim: bool("allowed_to_swim"),
    canSwim: bool("can_swim"),
    allowedToCanoe: bool("allowed_to_canoe"),
    /** Idempotency key of the enrolment form submission that created it. */
    submissionKey: text("submission_key"),
    /** The enrolment (payment) this registration belongs to. */
    enrolmentId: integer("enrolment_id").references(() => enrolments.id, { onDelete: "set null" }),
    /** What this registration costs (sibling discount applied); null while on the waiting list. */
    amountCents: integer("amount_cents"),
    /**
     * Its amount was asked for on its own, by a mail after the enrolment (a place got later, a
     * booked payment taken back), not in the enrolment's total: the confirmation page shows it as
     * a payment of its own, as that mail asked (DECISIONS.md, one enrolment, one payment).
     */
    amountAskedAlone: bool("amount_asked_alone").notNull().default(false),
    /**
     * Its payment is confirmed and the parent's "Zahlung eingegangen" mail waits until then: ten
     * minutes to take a mistake back, and one mail for the children of one account and event
     * whose payments are confirmed meanwhile (payment-mails.server.ts). Null: no mail waits.
     */
    paymentMailAt: integer("payment_mail_at", { mode: "timestamp_ms" }),
    /** The answers given in this enrolment (DECISIONS.md, registration answers). */
    tshirtSize: text("tshirt_size", { enum: TSHIRT_SIZES }),
    swimBadge: text("swim_badge", { enum: SWIM_BADGES }),
    specialNeeds: text("special_needs").notNull().default(""),
    nameOfInsured: text("name_of_insured").notNull().default(""),
    birthdateOfInsured: text("birthdate_of_insured"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("registrations_event_participant_unique").on(t.eventId, t.participantId),
    uniqueIndex("registrations_event_waiting_unique")
      .on(t.eventId, t.waitingListPosition)
      .where(sql`waiting_list_position IS NOT NULL`),
    // Target of the composite key in group_members.
    uniqueIndex("registrations_event_id_unique").on(t.eventId, t.id),
    index("registrations_event_status_idx").on(t.eventId, t.applicationStatus),
    index("registrations_user_idx").on(t.userId, t.eventId),
    index("registrations_participant_idx").on(t.participantId),
    index("registrations_sepa_idx").on(t.sepaMandateId),
    index("registrations_submission_idx").on(t.submissionKey),
    index("registrations_enrolment_idx").on(t.enrolmentId),
    check("registrations_tshirt_check", sql`tshirt_size IS NULL OR ${oneOf("tshirt_size", TSHIRT_SIZES)}`),
    check("registrations_swim_check", sql`swim_badge IS NULL OR ${oneOf("swim_badge", SWIM_BADGES)}`),
    check("registrations_amount_check", sql`amount_cents IS NULL OR amount_cents >= 0`),
    check("registrations_status_check", oneOf("application_status", APPLICATION_STATUSES)),
    check("registrations_payment_method_check", oneOf("payment_method", PAYMENT_METHODS)),
    check(
      "registrations_sepa_check",
      sql`payment_method = 'sepa' OR sepa_mandate_id IS NULL`,
    ),
    check("registrations_waiting_check", sql`waiting_list_position IS NULL OR waiting_list_position > 0`),
    check("registrations_offer_check", sql`offer_expires_at IS NULL OR waiting_list_position IS NOT NULL`),
    index("registrations_offer_idx").on(t.offerExpiresAt),
    // The payment mails that wait, read every minute without reading the registrations.
    index("registrations_payment_mail_idx")
      .on(t.paymentMailAt)
      .where(sql`payment_mail_at IS NOT NULL`),
    // An event's open waiting-list offers (places taken), without reading its waiting list.
    index("registrations_event_offer_idx")
      .on(t.eventId, t.applicationStatus)
      .where(sql`offer_expires_at IS NOT NULL`),
    // The admin panel's counts of open decisions and payments read only this index.
    index("registrations_place_holding_idx")
      .on(t.eventId, t.applicationStatus, t.paid, t.amountCents, t.waitingListPosition)
      .where(sql`waiting_list_position IS NULL AND application_status IN ('open', 'accepted')`),
  ],
);

/** The history of a registration: each status change with who did it and the reason given. */
export const registrationHistory = sqliteTable(
  "registration_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: REGISTRATION_ACTIONS }).notNull(),
    reason: text("reason").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("registration_history_registration_idx").on(t.registrationId, t.createdAt),
    check("registration_history_action_check", oneOf("action", REGISTRATION_ACTIONS)),
  ],
);

/**
 * Who is in which group. A person is in at most one group per event, and the database makes
 * sure group, registration and helper all belong to the same event.
 */
export const groupMembers = sqliteTable(
  "group_members",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    groupId: integer("group_id").notNull(),
    registrationId: integer("registration_id"),
    helperUserId: integer("helper_user_id"),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: "group_members_group_fk",
      columns: [t.eventId, t.groupId],
      foreignColumns: [eventGroups.eventId, eventGroups.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "group_members_registration_fk",
      columns: [t.eventId, t.registrationId],
      foreignColumns: [registrations.eventId, registrations.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "group_members_helper_fk",
      columns: [t.eventId, t.helperUserId],
      foreignColumns: [eventHelpers.eventId, eventHelpers.userId],
    }).onDelete("cascade"),
    uniqueIndex("group_members_registration_unique").on(t.eventId, t.registrationId),
    uniqueIndex("group_members_helper_unique").on(t.eventId, t.helperUserId),
    index("group_members_group_idx").on(t.groupId),
    check(
      "group_members_one_member_check",
      sql`(registration_id IS NULL) <> (helper_user_id IS NULL)`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// Infrastructure

/** Every mail is written here first, in the transaction of the change that causes it. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** JSON array of addresses. */
    recipients: text("recipients").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** JSON array of { filename, path, contentType } below UPLOADS_DIR, or null. */
    attachments: text("attachments"),
    /** Where an answer goes (an event e-mail: the lead person who wrote it), or null: nowhere but MAIL_FROM. */
    replyTo: text("reply_to"),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    /** While 'sending': when a worker that died mid-delivery gives the mail up for another try. */
    lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
    lastError: text("last_error"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
    check("mail_outbox_status_check", oneOf("status", MAIL_STATUSES)),
  ],
);

/** An event e-mail (spec §2.9) as it was sent: the log of the event's mails. */
export const eventMails = sqliteTable(
  "event_mails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    senderId: integer("sender_id").references(() => users.id, { onDelete: "set null" }),
    /** The sender's name when it was sent (the log keeps it if the account goes). */
    senderName: text("sender_name").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    audience: text("audience", { enum: EVENT_MAIL_AUDIENCES }).notNull(),
    /** JSON array of { filename, path, contentType, size }: stored once, below UPLOADS_DIR. */
    attachments: text("attachments"),
    createdAt: createdAt(),
  },
  (t) => [
    index("event_mails_event_idx").on(t.eventId, t.createdAt),
    check("event_mails_audience_check", oneOf("audience", EVENT_MAIL_AUDIENCES)),
  ],
);

/** One address of an event e-mail, and the outbox mail that delivers it (its state). */
export const eventMailRecipients = sqliteTable(
  "event_mail_recipients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    mailId: integer("mail_id")
      .notNull()
      .references(() => eventMails.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** The latest delivery of this address ('Erneut senden' points it to a new one). */
    outboxId: integer("outbox_id").references(() => mailOutbox.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("event_mail_recipients_mail_email_unique").on(t.mailId, t.email),
    index("event_mail_recipients_outbox_idx").on(t.outboxId),
  ],
);

/**
 * Forms that create something carry a one-time key: a second submission of the same form
 * (double click, reload, retry) finds the first one's result instead of creating again.
 */
export const formSubmissions = sqliteTable(
  "form_submissions",
  {
    key: text("key").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Where the first submission led, e.g. /freizeit/12. */
    resultPath: text("result_path").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("form_submissions_created_idx").on(t.createdAt)],
);

/** When each scheduled job last ran (any process): the health answer reads it. */
export const jobRuns = sqliteTable("job_runs", {
  name: text("name").primaryKey(),
  lastRunAt: integer("last_run_at", { mode: "timestamp_ms" }).notNull(),
  lastError: text("last_error"),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: integer("entity_id"),
    /** JSON */
    details: text("details"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_entity_idx").on(t.entityType, t.entityId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Relations (for drizzle's relational queries)

export const usersRelations = relations(users, ({ many }) => ({
  sessions: many(sessions),
  participants: many(participants),
  guardians: many(guardians),
  ownedEvents: many(eventOwners),
  helperEntries: many(eventHelpers),
  registrations: many(registrations),
}));

export const eventsRelations = relations(events, ({ many }) => ({
  owners: many(eventOwners),
  helpers: many(eventHelpers),
  files: many(files),
  groups: many(eventGroups),
  registrations: many(registrations),
}));

export const eventOwnersRelations = relations(eventOwners, ({ one }) => ({
  event: one(events, { fields: [eventOwners.eventId], references: [events.id] }),
  user: one(users, { fields: [eventOwners.userId], references: [users.id] }),
}));

export const eventHelpersRelations = relations(eventHelpers, ({ one }) => ({
  event: one(events, { fields: [eventHelpers.eventId], references: [events.id] }),
  user: one(users, { fields: [eventHelpers.userId], references: [users.id] }),
}));

export const filesRelations = relations(files, ({ one }) => ({
  event: one(events, { fields: [files.eventId], references: [events.id] }),
}));

export const eventGroupsRelations = relations(eventGroups, ({ one, many }) => ({
  event: one(events, { fields: [eventGroups.eventId], references: [events.id] }),
  members: many(groupMembers),
}));

export const groupMembersRelations = relations(groupMembers, ({ one }) => ({
  group: one(eventGroups, { fields: [groupMembers.groupId], references: [eventGroups.id] }),
  registration: one(registrations, {
    fields: [groupMembers.registrationId],
    references: [registrations.id],
  }),
}));

export const participantsRelations = relations(participants, ({ one, many }) => ({
  user: one(users, { fields: [participants.userId], references: [users.id] }),
  comments: many(comments),
  registrations: many(registrations),
}));

export const guardiansRelations = relations(guardians, ({ one }) => ({
  user: one(users, { fields: [guardians.userId], references: [users.id] }),
}));

export const commentsRelations = relations(comments, ({ one }) => ({
  participant: one(participants, { fields: [comments.participantId], references: [participants.id] }),
  author: one(users, { fields: [comments.authorId], references: [users.id] }),
}));

export const sepaMandatesRelations = relations(sepaMandates, ({ one, many }) => ({
  user: one(users, { fields: [sepaMandates.userId], references: [users.id] }),
  event: one(events, { fields: [sepaMandates.eventId], references: [events.id] }),
  registrations: many(registrations),
}));

export const enrolmentsRelations = relations(enrolments, ({ one, many }) => ({
  event: one(events, { fields: [enrolments.eventId], references: [events.id] }),
  user: one(users, { fields: [enrolments.userId], references: [users.id] }),
  registrations: many(registrations),
}));

export const registrationsRelations = relations(registrations, ({ one, many }) => ({
  enrolment: one(enrolments, { fields: [registrations.enrolmentId], references: [enrolments.id] }),
  event: one(events, { fields: [registrations.eventId], references: [events.id] }),
  participant: one(participants, {
    fields: [registrations.participantId],
    references: [participants.id],
  }),
  guardian: one(guardians, { fields: [registrations.guardianId], references: [guardians.id] }),
  user: one(users, { fields: [registrations.userId], references: [users.id] }),
  sepaMandate: one(sepaMandates, {
    fields: [registrations.sepaMandateId],
    references: [sepaMandates.id],
  }),
  history: many(registrationHistory),
}));

export const registrationHistoryRelations = relations(registrationHistory, ({ one }) => ({
  registration: one(registrations, {
    fields: [registrationHistory.registrationId],
    references: [registrations.id],
  }),
  actor: one(users, { fields: [registrationHistory.actorId], references: [users.id] }),
}));

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Event = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;
export type Participant = typeof participants.$inferSelect;
export type Guardian = typeof guardians.$inferSelect;
export type Enrolment = typeof enrolments.$inferSelect;
export type Registration = typeof registrations.$inferSelect;
export type SepaMandate = typeof sepaMandates.$inferSelect;
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type LegalDocumentVersion = typeof legalDocumentVersions.$inferSelect;
