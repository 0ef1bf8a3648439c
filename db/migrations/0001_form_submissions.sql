CREATE TABLE `form_submissions` (
	`key` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`result_path` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_submissions_created_idx` ON `form_submissions` (`created_at`);