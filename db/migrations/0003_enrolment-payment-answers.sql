-- Written by hand from drizzle-kit's output: drizzle-kit rebuilt `events` and `registrations`
-- (new table, copy, DROP, rename) to add the new CHECK constraints, but the migrator runs in a
-- transaction where `PRAGMA foreign_keys=OFF` does nothing, so the DROP would have cascaded into
-- every registration, history entry and group member. ALTER TABLE … ADD keeps every row.
CREATE TABLE `enrolments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`submission_key` text NOT NULL,
	`reference` text NOT NULL,
	`payment_method` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "enrolments_payment_method_check" CHECK(payment_method IN ('transfer', 'sepa'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `enrolments_submission_unique` ON `enrolments` (`user_id`,`event_id`,`submission_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `enrolments_reference_unique` ON `enrolments` (`reference`);--> statement-breakpoint
CREATE INDEX `enrolments_event_idx` ON `enrolments` (`event_id`);--> statement-breakpoint
ALTER TABLE `events` ADD `sibling_discount_cents` integer DEFAULT 0 NOT NULL CONSTRAINT "events_sibling_discount_check" CHECK(sibling_discount_cents >= 0);--> statement-breakpoint
ALTER TABLE `participants` ADD `allowed_to_wander` integer;--> statement-breakpoint
ALTER TABLE `participants` ADD `allowed_to_swim` integer;--> statement-breakpoint
ALTER TABLE `participants` ADD `can_swim` integer;--> statement-breakpoint
ALTER TABLE `participants` ADD `allowed_to_canoe` integer;--> statement-breakpoint
ALTER TABLE `registrations` ADD `enrolment_id` integer REFERENCES `enrolments`(`id`) ON UPDATE no action ON DELETE set null;--> statement-breakpoint
ALTER TABLE `registrations` ADD `amount_cents` integer CONSTRAINT "registrations_amount_check" CHECK(amount_cents IS NULL OR amount_cents >= 0);--> statement-breakpoint
ALTER TABLE `registrations` ADD `tshirt_size` text CONSTRAINT "registrations_tshirt_check" CHECK(tshirt_size IS NULL OR tshirt_size IN ('S', 'M', 'L', 'XL', 'XXL'));--> statement-breakpoint
ALTER TABLE `registrations` ADD `swim_badge` text CONSTRAINT "registrations_swim_check" CHECK(swim_badge IS NULL OR swim_badge IN ('Seepferdchen', 'Bronze', 'Silber', 'Gold'));--> statement-breakpoint
ALTER TABLE `registrations` ADD `special_needs` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `registrations` ADD `name_of_insured` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `registrations` ADD `birthdate_of_insured` text;--> statement-breakpoint
CREATE INDEX `registrations_enrolment_idx` ON `registrations` (`enrolment_id`);--> statement-breakpoint
-- Today's answers live on the child: every existing registration gets a copy of them.
UPDATE `registrations` SET
	`tshirt_size` = (SELECT p.`tshirt_size` FROM `participants` p WHERE p.`id` = `registrations`.`participant_id`),
	`swim_badge` = (SELECT p.`swim_badge` FROM `participants` p WHERE p.`id` = `registrations`.`participant_id`),
	`special_needs` = (SELECT p.`special_needs` FROM `participants` p WHERE p.`id` = `registrations`.`participant_id`),
	`name_of_insured` = (SELECT p.`name_of_insured` FROM `participants` p WHERE p.`id` = `registrations`.`participant_id`),
	`birthdate_of_insured` = (SELECT p.`birthdate_of_insured` FROM `participants` p WHERE p.`id` = `registrations`.`participant_id`);--> statement-breakpoint
-- The child's permission defaults: the answers of its latest registration.
UPDATE `participants` SET
	`allowed_to_wander` = (SELECT r.`allowed_to_wander` FROM `registrations` r WHERE r.`participant_id` = `participants`.`id` ORDER BY r.`id` DESC LIMIT 1),
	`allowed_to_swim` = (SELECT r.`allowed_to_swim` FROM `registrations` r WHERE r.`participant_id` = `participants`.`id` ORDER BY r.`id` DESC LIMIT 1),
	`can_swim` = (SELECT r.`can_swim` FROM `registrations` r WHERE r.`participant_id` = `participants`.`id` ORDER BY r.`id` DESC LIMIT 1),
	`allowed_to_canoe` = (SELECT r.`allowed_to_canoe` FROM `registrations` r WHERE r.`participant_id` = `participants`.`id` ORDER BY r.`id` DESC LIMIT 1);--> statement-breakpoint
-- One enrolment per earlier submission; its reference is the one the parent was mailed for the
-- first child (LF-{event}-{registration}).
INSERT INTO `enrolments` (`event_id`, `user_id`, `submission_key`, `reference`, `payment_method`, `created_at`)
	SELECT `event_id`, `user_id`, coalesce(`submission_key`, 'alt-' || min(`id`)), 'LF-' || `event_id` || '-' || min(`id`), min(`payment_method`), min(`created_at`)
	FROM `registrations`
	GROUP BY `event_id`, `user_id`, coalesce(`submission_key`, 'alt-' || `id`);--> statement-breakpoint
UPDATE `registrations` SET `enrolment_id` = (
	SELECT e.`id` FROM `enrolments` e
	WHERE e.`event_id` = `registrations`.`event_id` AND e.`user_id` = `registrations`.`user_id`
		AND e.`submission_key` = coalesce(`registrations`.`submission_key`, 'alt-' || `registrations`.`id`)
);--> statement-breakpoint
UPDATE `registrations` SET `amount_cents` = (SELECT ev.`price_cents` FROM `events` ev WHERE ev.`id` = `registrations`.`event_id`)
	WHERE `waiting_list_position` IS NULL;
