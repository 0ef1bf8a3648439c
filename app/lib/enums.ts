// The enumerations of the data model. Kept apart from db/schema.ts so that forms in the browser
// can use them without loading the database layer.
export const ROLES = ["user", "admin"] as const;
export const HELPER_STATUSES = ["pending", "accepted", "declined"] as const;
/** open: waiting for the leaders' decision (or on the waiting list); cancelled: storniert. */
export const APPLICATION_STATUSES = ["open", "accepted", "rejected", "cancelled"] as const;
export const PAYMENT_METHODS = ["transfer", "sepa"] as const;
export const TSHIRT_SIZES = ["S", "M", "L", "XL", "XXL"] as const;
export const SWIM_BADGES = ["Seepferdchen", "Bronze", "Silber", "Gold"] as const;
export const TOKEN_PURPOSES = ["confirm_email", "reset_password", "change_email"] as const;
export const FILE_KINDS = ["preview", "attachment", "legal", "mail_attachment"] as const;
export const LEGAL_DOCUMENT_TYPES = ["privacy", "participation_terms", "general_terms"] as const;
export const MAIL_STATUSES = ["pending", "sending", "sent", "failed"] as const;
/** Who gets an event e-mail: both, the families of accepted participants, the accepted helpers,
 * the families on the waiting list, the families of accepted but unpaid participants. */
export const EVENT_MAIL_AUDIENCES = ["both", "participants", "helpers", "waiting", "unpaid"] as const;
export type EventMailAudience = (typeof EVENT_MAIL_AUDIENCES)[number];
export const REGISTRATION_ACTIONS = [
  "created",
  "accepted",
  "rejected",
  "cancelled",
  "rejection_revoked",
  "moved_from_waiting_list",
  "payment_confirmed",
  "payment_revoked",
  "offered",
  "offer_accepted",
  "offer_declined",
  "offer_expired",
] as const;

export type Role = (typeof ROLES)[number];
export type HelperStatus = (typeof HELPER_STATUSES)[number];
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type TshirtSize = (typeof TSHIRT_SIZES)[number];
export type SwimBadge = (typeof SWIM_BADGES)[number];
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];
export type FileKind = (typeof FILE_KINDS)[number];
export type LegalDocumentType = (typeof LEGAL_DOCUMENT_TYPES)[number];
export type MailStatus = (typeof MAIL_STATUSES)[number];
export type RegistrationAction = (typeof REGISTRATION_ACTIONS)[number];

