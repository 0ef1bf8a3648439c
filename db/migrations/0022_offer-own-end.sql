-- An open waiting-list offer keeps its own end (made + the event's offer time) beside the end a
-- start moved earlier may have cut it to, so that a start moved later again gives the time back.
-- Open offers get it from when they were made (their last 'offered' entry), never before the end
-- they hold now; an offer without that entry keeps its present end.
ALTER TABLE `registrations` ADD `offer_own_end` integer;--> statement-breakpoint
UPDATE `registrations` SET `offer_own_end` = max(`offer_expires_at`, coalesce((
  SELECT max(`h`.`created_at`) FROM `registration_history` AS `h`
  WHERE `h`.`registration_id` = `registrations`.`id` AND `h`.`action` = 'offered'
) + (SELECT `e`.`offer_hours` * 3600000 FROM `events` AS `e` WHERE `e`.`id` = `registrations`.`event_id`), `offer_expires_at`))
WHERE `offer_expires_at` IS NOT NULL;
