ALTER TABLE `events` ADD `helper_check_reminder_sent_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `phone` text;