// The protocol (audit log): who changed what, when, with the reason. Written inside the
// transaction of the change, read by admins on /gott.
import { auditLog } from "../../db/schema";
import type { Queryable } from "~/services/db.server";

/** Kinds of entries, by area; the protocol filters by them. */
export type AuditAction =
  | "registration.accepted"
  | "registration.rejected"
  | "registration.cancelled"
  | "registration.rejection_revoked"
  | "registration.moved_up"
  | "registration.payment_confirmed"
  | "registration.payment_revoked"
  | "registration.offered"
  | "registration.offer_accepted"
  | "registration.offer_declined"
  | "registration.offer_expired"
  | "registration.offer_shortened"
  | "registration.offer_extended"
  | "helper.accepted"
  | "helper.declined"
  | "helper.reset"
  | "user.admin_granted"
  | "user.admin_revoked"
  | "user.deactivated"
  | "user.reactivated"
  | "legal.uploaded"
  | "event.deleted"
  | "event.place_added"
  | "retention.run";

export type AuditEntry = {
  actorId: number | null;
  action: AuditAction;
  entityType: "registration" | "helper" | "user" | "legal" | "event" | "system";
  entityId?: number | null;
  /** Small, never personal contents beyond names: a reason, counts, the event's title. */
  details?: Record<string, unknown>;
};

export function recordAudit(tx: Queryable, entry: AuditEntry) {
  tx.insert(auditLog)
    .values({
      actorId: entry.actorId,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    })
    .run();
}
