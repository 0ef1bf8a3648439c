ALTER TABLE `users` ADD `police_certificate_checked_on` text;--> statement-breakpoint
ALTER TABLE `users` ADD `police_certificate_checked_by` text;--> statement-breakpoint
ALTER TABLE `users` ADD `juleica_number` text;--> statement-breakpoint
ALTER TABLE `users` ADD `juleica_expires_on` text;