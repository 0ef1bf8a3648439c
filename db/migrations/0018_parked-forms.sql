-- A form sent after its session had run out, kept sealed for the login that follows (decision 0020).
CREATE TABLE `parked_forms` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`path` text NOT NULL,
	`sealed` blob NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `parked_forms_user_idx` ON `parked_forms` (`user_id`);--> statement-breakpoint
CREATE INDEX `parked_forms_expires_idx` ON `parked_forms` (`expires_at`);