CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` integer,
	`details` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_entity_idx` ON `audit_log` (`entity_type`,`entity_id`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`participant_id` integer NOT NULL,
	`event_id` integer,
	`author_id` integer,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `comments_participant_idx` ON `comments` (`participant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `event_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_groups_event_name_unique` ON `event_groups` (`event_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `event_groups_event_id_unique` ON `event_groups` (`event_id`,`id`);--> statement-breakpoint
CREATE TABLE `event_helpers` (
	`event_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`event_id`, `user_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "event_helpers_status_check" CHECK(status IN ('pending', 'accepted', 'declined'))
);
--> statement-breakpoint
CREATE INDEX `event_helpers_user_idx` ON `event_helpers` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `event_helpers_event_status_idx` ON `event_helpers` (`event_id`,`status`);--> statement-breakpoint
CREATE TABLE `event_owners` (
	`event_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`event_id`, `user_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_owners_user_idx` ON `event_owners` (`user_id`);--> statement-breakpoint
CREATE TABLE `events` (
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
	`member_rules` text DEFAULT '' NOT NULL,
	`only_staff_visible` integer DEFAULT false NOT NULL,
	`requires_application` integer DEFAULT true NOT NULL,
	`tshirt_size_required` integer DEFAULT false NOT NULL,
	`swim_badge_required` integer DEFAULT false NOT NULL,
	`permits_required` integer DEFAULT false NOT NULL,
	`capacity` integer,
	`created_by_id` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "events_capacity_check" CHECK(capacity IS NULL OR capacity > 0),
	CONSTRAINT "events_price_check" CHECK(price_cents >= 0),
	CONSTRAINT "events_date_order_check" CHECK(date_to IS NULL OR date_to >= date_from)
);
--> statement-breakpoint
CREATE INDEX `events_starts_at_idx` ON `events` (`starts_at`);--> statement-breakpoint
CREATE INDEX `events_date_title_idx` ON `events` (`date_from`,`title`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`display_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`kind` text NOT NULL,
	`event_id` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "files_kind_check" CHECK(kind IN ('preview', 'attachment', 'legal', 'mail_attachment')),
	CONSTRAINT "files_size_check" CHECK(size >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_key_unique` ON `files` (`key`);--> statement-breakpoint
CREATE INDEX `files_event_kind_idx` ON `files` (`event_id`,`kind`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `files_one_preview_per_event` ON `files` (`event_id`) WHERE kind = 'preview';--> statement-breakpoint
CREATE TABLE `group_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`group_id` integer NOT NULL,
	`registration_id` integer,
	`helper_user_id` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`,`group_id`) REFERENCES `event_groups`(`event_id`,`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`,`registration_id`) REFERENCES `registrations`(`event_id`,`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`,`helper_user_id`) REFERENCES `event_helpers`(`event_id`,`user_id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "group_members_one_member_check" CHECK((registration_id IS NULL) <> (helper_user_id IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `group_members_registration_unique` ON `group_members` (`event_id`,`registration_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `group_members_helper_unique` ON `group_members` (`event_id`,`helper_user_id`);--> statement-breakpoint
CREATE INDEX `group_members_group_idx` ON `group_members` (`group_id`);--> statement-breakpoint
CREATE TABLE `guardians` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`street` text DEFAULT '' NOT NULL,
	`postal_code` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`mobile_phone` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guardians_user_idx` ON `guardians` (`user_id`,`last_name`,`first_name`);--> statement-breakpoint
CREATE TABLE `legal_documents` (
	`type` text PRIMARY KEY NOT NULL,
	`file_id` integer NOT NULL,
	`uploaded_by_id` integer,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`uploaded_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "legal_documents_type_check" CHECK(type IN ('privacy', 'participation_terms', 'general_terms'))
);
--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`client_key` text NOT NULL,
	`succeeded` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_attempts_email_idx` ON `login_attempts` (`email`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_attempts_client_idx` ON `login_attempts` (`client_key`,`created_at`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipients` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`attachments` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`locked_until` integer,
	`last_error` text,
	`sent_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	CONSTRAINT "mail_outbox_status_check" CHECK(status IN ('pending', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `participants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`street` text NOT NULL,
	`postal_code` text,
	`city` text NOT NULL,
	`birth_date` text NOT NULL,
	`municipality` text DEFAULT '' NOT NULL,
	`amtsverwaltung` text DEFAULT '' NOT NULL,
	`tshirt_size` text,
	`swim_badge` text,
	`special_needs` text DEFAULT '' NOT NULL,
	`name_of_insured` text DEFAULT '' NOT NULL,
	`birthdate_of_insured` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "participants_tshirt_check" CHECK(tshirt_size IS NULL OR tshirt_size IN ('S', 'M', 'L', 'XL', 'XXL')),
	CONSTRAINT "participants_swim_check" CHECK(swim_badge IS NULL OR swim_badge IN ('Seepferdchen', 'Bronze', 'Silber', 'Gold'))
);
--> statement-breakpoint
CREATE INDEX `participants_user_idx` ON `participants` (`user_id`,`last_name`,`first_name`);--> statement-breakpoint
CREATE TABLE `registration_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`registration_id` integer NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "registration_history_action_check" CHECK(action IN ('created', 'accepted', 'rejected', 'cancelled', 'rejection_revoked', 'moved_from_waiting_list', 'payment_confirmed', 'payment_revoked'))
);
--> statement-breakpoint
CREATE INDEX `registration_history_registration_idx` ON `registration_history` (`registration_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `registrations` (
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
	`allowed_to_wander` integer,
	`allowed_to_swim` integer,
	`can_swim` integer,
	`allowed_to_canoe` integer,
	`submission_key` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `guardians`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sepa_mandate_id`) REFERENCES `sepa_mandates`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "registrations_status_check" CHECK(application_status IN ('open', 'accepted', 'rejected')),
	CONSTRAINT "registrations_payment_method_check" CHECK(payment_method IN ('transfer', 'sepa')),
	CONSTRAINT "registrations_sepa_check" CHECK(payment_method = 'sepa' OR sepa_mandate_id IS NULL),
	CONSTRAINT "registrations_waiting_check" CHECK(waiting_list_position IS NULL OR waiting_list_position > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_event_participant_unique` ON `registrations` (`event_id`,`participant_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_event_waiting_unique` ON `registrations` (`event_id`,`waiting_list_position`) WHERE waiting_list_position IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_event_id_unique` ON `registrations` (`event_id`,`id`);--> statement-breakpoint
CREATE INDEX `registrations_event_status_idx` ON `registrations` (`event_id`,`application_status`);--> statement-breakpoint
CREATE INDEX `registrations_user_idx` ON `registrations` (`user_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `registrations_participant_idx` ON `registrations` (`participant_id`);--> statement-breakpoint
CREATE INDEX `registrations_sepa_idx` ON `registrations` (`sepa_mandate_id`);--> statement-breakpoint
CREATE INDEX `registrations_submission_idx` ON `registrations` (`submission_key`);--> statement-breakpoint
CREATE TABLE `sepa_mandates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`street` text NOT NULL,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`iban` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sepa_mandates_user_event_unique` ON `sepa_mandates` (`user_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `sepa_mandates_event_idx` ON `sepa_mandates` (`event_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `user_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`new_email` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "user_tokens_purpose_check" CHECK(purpose IN ('confirm_email', 'reset_password', 'change_email'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_tokens_hash_unique` ON `user_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `user_tokens_user_idx` ON `user_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`banned` integer DEFAULT false NOT NULL,
	`email_confirmed_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	CONSTRAINT "users_role_check" CHECK(role IN ('user', 'admin')),
	CONSTRAINT "users_email_lower_check" CHECK(email = lower(email))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_role_last_name_idx` ON `users` (`role`,`last_name`);