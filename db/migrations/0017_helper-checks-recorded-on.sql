-- The day a helper's checks were saved: a record of someone who is no accepted helper any more
-- (withdrawn, declined, the event deleted) goes three months after it. Records kept so far count
-- as saved today, so none goes sooner than three months from now.
ALTER TABLE `users` ADD `helper_checks_recorded_on` text;--> statement-breakpoint
UPDATE `users` SET `helper_checks_recorded_on` = date('now', 'localtime') WHERE `police_certificate_checked_on` IS NOT NULL OR `police_certificate_checked_by` IS NOT NULL OR `juleica_number` IS NOT NULL OR `juleica_expires_on` IS NOT NULL;
