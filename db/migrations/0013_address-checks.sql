CREATE TABLE `address_checks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_key` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `address_checks_client_idx` ON `address_checks` (`client_key`,`created_at`);