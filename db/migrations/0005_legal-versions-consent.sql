CREATE TABLE `legal_document_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`version` integer NOT NULL,
	`file_id` integer NOT NULL,
	`uploaded_by_id` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsecond') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`uploaded_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "legal_document_versions_type_check" CHECK(type IN ('privacy', 'participation_terms', 'general_terms')),
	CONSTRAINT "legal_document_versions_version_check" CHECK(version > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `legal_document_versions_type_version_unique` ON `legal_document_versions` (`type`,`version`);--> statement-breakpoint
CREATE UNIQUE INDEX `legal_document_versions_file_unique` ON `legal_document_versions` (`file_id`);--> statement-breakpoint
ALTER TABLE `enrolments` ADD `terms_version_id` integer REFERENCES legal_document_versions(id);--> statement-breakpoint
ALTER TABLE `enrolments` ADD `privacy_version_id` integer REFERENCES legal_document_versions(id);--> statement-breakpoint
ALTER TABLE `enrolments` ADD `consented_at` integer;--> statement-breakpoint
CREATE INDEX `enrolments_terms_version_idx` ON `enrolments` (`terms_version_id`);--> statement-breakpoint
CREATE INDEX `enrolments_privacy_version_idx` ON `enrolments` (`privacy_version_id`);--> statement-breakpoint
-- The file each type had before versions were kept becomes its version 1.
INSERT INTO `legal_document_versions` (`type`, `version`, `file_id`, `uploaded_by_id`, `created_at`) SELECT `type`, 1, `file_id`, `uploaded_by_id`, `updated_at` FROM `legal_documents`;
