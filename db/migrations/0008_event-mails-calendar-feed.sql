CREATE TABLE `event_mail_recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mail_id` integer NOT NULL,
	`email` text NOT NULL,
	`outbox_id` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`mail_id`) REFERENCES `event_mails`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`outbox_id`) REFERENCES `mail_outbox`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_mail_recipients_mail_email_unique` ON `event_mail_recipients` (`mail_id`,`email`);--> statement-breakpoint
CREATE INDEX `event_mail_recipients_outbox_idx` ON `event_mail_recipients` (`outbox_id`);--> statement-breakpoint
CREATE TABLE `event_mails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`sender_id` integer,
	`sender_name` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`audience` text NOT NULL,
	`attachments` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "event_mails_audience_check" CHECK(audience IN ('both', 'participants', 'helpers', 'waiting', 'unpaid'))
);
--> statement-breakpoint
CREATE INDEX `event_mails_event_idx` ON `event_mails` (`event_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `calendar_token_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_calendar_token_unique` ON `users` (`calendar_token_hash`);