-- A comment is about a participant at an event and goes with its event: deleting an event kept its
-- comments (event_id set to null), which no retention run could find any more. Those left behind
-- by earlier deletions go now.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`participant_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`author_id` integer,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_comments`("id", "participant_id", "event_id", "author_id", "text", "created_at", "updated_at") SELECT "id", "participant_id", "event_id", "author_id", "text", "created_at", "updated_at" FROM `comments` WHERE "event_id" IS NOT NULL;--> statement-breakpoint
DROP TABLE `comments`;--> statement-breakpoint
ALTER TABLE `__new_comments` RENAME TO `comments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `comments_participant_idx` ON `comments` (`participant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_event_idx` ON `comments` (`event_id`);