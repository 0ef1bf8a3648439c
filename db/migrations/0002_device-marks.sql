ALTER TABLE `login_attempts` ADD `device_key` text;--> statement-breakpoint
CREATE INDEX `login_attempts_device_idx` ON `login_attempts` (`device_key`,`created_at`);