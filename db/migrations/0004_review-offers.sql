-- Hand-mended: drizzle-kit selected the new columns from the old tables.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_registration_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`registration_id` integer NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "registration_history_action_check" CHECK(action IN ('created', 'accepted', 'rejected', 'cancelled', 'rejection_revoked', 'moved_from_waiting_list', 'payment_confirmed', 'payment_revoked', 'offered', 'offer_accepted', 'offer_declined', 'offer_expired'))
);
--> statement-breakpoint
INSERT INTO `__new_registration_history`("id", "registration_id", "actor_id", "action", "reason", "created_at") SELECT "id", "registration_id", "actor_id", "action", "reason", "created_at" FROM `registration_history`;--> statement-breakpoint
DROP TABLE `registration_history`;--> statement-breakpoint
ALTER TABLE `__new_registration_history` RENAME TO `registration_history`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `registration_history_registration_idx` ON `registration_history` (`registration_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_registrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`participant_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`guardian_id` integer,
	`referral` text DEFAULT '' NOT NULL,
	`payment_method` text NOT NULL,
	`sepa_mandate_id` integer,
	`paid` integer DEFAULT false NOT NULL,
	`application_status` text DEFAULT 'open' NOT NULL,
	`waiting_list_position` integer,
	`offer_expires_at` integer,
	`allowed_to_wander` integer,
	`allowed_to_swim` integer,
	`can_swim` integer,
	`allowed_to_canoe` integer,
	`submission_key` text,
	`enrolment_id` integer,
	`amount_cents` integer,
	`tshirt_size` text,
	`swim_badge` text,
	`special_needs` text DEFAULT '' NOT NULL,
	`name_of_insured` text DEFAULT '' NOT NULL,
	`birthdate_of_insured` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `guardians`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sepa_mandate_id`) REFERENCES `sepa_mandates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`enrolment_id`) REFERENCES `enrolments`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "registrations_tshirt_check" CHECK(tshirt_size IS NULL OR tshirt_size IN ('S', 'M', 'L', 'XL', 'XXL')),
	CONSTRAINT "registrations_swim_check" CHECK(swim_badge IS NULL OR swim_badge IN ('Seepferdchen', 'Bronze', 'Silber', 'Gold')),
	CONSTRAINT "registrations_amount_check" CHECK(amount_cents IS NULL OR amount_cents >= 0),
	CONSTRAINT "registrations_status_check" CHECK(application_status IN ('open', 'accepted', 'rejected', 'cancelled')),
	CONSTRAINT "registrations_payment_method_check" CHECK(payment_method IN ('transfer', 'sepa')),
	CONSTRAINT "registrations_sepa_check" CHECK(payment_method = 'sepa' OR sepa_mandate_id IS NULL),
	CONSTRAINT "registrations_waiting_check" CHECK(waiting_list_position IS NULL OR waiting_list_position > 0),
	CONSTRAINT "registrations_offer_check" CHECK(offer_expires_at IS NULL OR waiting_list_position IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_registrations`("id", "event_id", "participant_id", "user_id", "guardian_id", "referral", "payment_method", "sepa_mandate_id", "paid", "application_status", "waiting_list_position", "allowed_to_wander", "allowed_to_swim", "can_swim", "allowed_to_canoe", "submission_key", "enrolment_id", "amount_cents", "tshirt_size", "swim_badge", "special_needs", "name_of_insured", "birthdate_of_insured", "created_at", "updated_at") SELECT "id", "event_id", "participant_id", "user_id", "guardian_id", "referral", "payment_method", "sepa_mandate_id", "paid", "application_status", "waiting_list_position", "allowed_to_wander", "allowed_to_swim", "can_swim", "allowed_to_canoe", "submission_key", "enrolment_id", "amount_cents", "tshirt_size", "swim_badge", "special_needs", "name_of_insured", "birthdate_of_insured", "created_at", "updated_at" FROM `registrations`;--> statement-breakpoint
DROP TABLE `registrations`;--> statement-breakpoint
ALTER TABLE `__new_registrations` RENAME TO `registrations`;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_event_participant_unique` ON `registrations` (`event_id`,`participant_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_event_waiting_unique` ON `registrations` (`event_id`,`waiting_list_position`) WHERE waiting_list_position IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_event_id_unique` ON `registrations` (`event_id`,`id`);--> statement-breakpoint
CREATE INDEX `registrations_event_status_idx` ON `registrations` (`event_id`,`application_status`);--> statement-breakpoint
CREATE INDEX `registrations_user_idx` ON `registrations` (`user_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `registrations_participant_idx` ON `registrations` (`participant_id`);--> statement-breakpoint
CREATE INDEX `registrations_sepa_idx` ON `registrations` (`sepa_mandate_id`);--> statement-breakpoint
CREATE INDEX `registrations_submission_idx` ON `registrations` (`submission_key`);--> statement-breakpoint
CREATE INDEX `registrations_enrolment_idx` ON `registrations` (`enrolment_id`);--> statement-breakpoint
CREATE INDEX `registrations_offer_idx` ON `registrations` (`offer_expires_at`);--> statement-breakpoint
CREATE TABLE `__new_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`date_from` text NOT NULL,
	`date_to` text,
	`time_from` text NOT NULL,
	`time_to` text,
	`registration_deadline` text,
	`starts_at` integer NOT NULL,
	`location` text NOT NULL,
	`price_cents` integer DEFAULT 0 NOT NULL,
	`sibling_discount` text DEFAULT '' NOT NULL,
	`sibling_discount_cents` integer DEFAULT 0 NOT NULL,
	`member_rules` text DEFAULT '' NOT NULL,
	`only_staff_visible` integer DEFAULT false NOT NULL,
	`requires_application` integer DEFAULT true NOT NULL,
	`tshirt_size_required` integer DEFAULT false NOT NULL,
	`swim_badge_required` integer DEFAULT false NOT NULL,
	`permits_required` integer DEFAULT false NOT NULL,
	`capacity` integer,
	`offer_hours` integer DEFAULT 48 NOT NULL,
	`created_by_id` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "events_capacity_check" CHECK(capacity IS NULL OR capacity > 0),
	CONSTRAINT "events_offer_hours_check" CHECK(offer_hours BETWEEN 6 AND 168),
	CONSTRAINT "events_price_check" CHECK(price_cents >= 0),
	CONSTRAINT "events_sibling_discount_check" CHECK(sibling_discount_cents >= 0),
	CONSTRAINT "events_date_order_check" CHECK(date_to IS NULL OR date_to >= date_from)
);
--> statement-breakpoint
INSERT INTO `__new_events`("id", "title", "description", "date_from", "date_to", "time_from", "time_to", "registration_deadline", "starts_at", "location", "price_cents", "sibling_discount", "sibling_discount_cents", "member_rules", "only_staff_visible", "requires_application", "tshirt_size_required", "swim_badge_required", "permits_required", "capacity", "created_by_id", "created_at", "updated_at") SELECT "id", "title", "description", "date_from", "date_to", "time_from", "time_to", "registration_deadline", "starts_at", "location", "price_cents", "sibling_discount", "sibling_discount_cents", "member_rules", "only_staff_visible", "requires_application", "tshirt_size_required", "swim_badge_required", "permits_required", "capacity", "created_by_id", "created_at", "updated_at" FROM `events`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
CREATE INDEX `events_starts_at_idx` ON `events` (`starts_at`);--> statement-breakpoint
CREATE INDEX `events_date_title_idx` ON `events` (`date_from`,`title`);