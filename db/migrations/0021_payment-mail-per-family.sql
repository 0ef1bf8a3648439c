-- A confirmed payment's "Zahlung eingegangen" mail waits on its registration (payment_mail_at)
-- instead of in the outbox, so that the children of one account and event confirmed within the
-- ten minutes get one mail. The mails still waiting in the outbox move to their registrations; a
-- mail that matches none (its event renamed since) stays in the outbox and goes out as it is.
ALTER TABLE `registrations` ADD `payment_mail_at` integer;--> statement-breakpoint
CREATE INDEX `registrations_payment_mail_idx` ON `registrations` (`payment_mail_at`) WHERE payment_mail_at IS NOT NULL;--> statement-breakpoint
WITH `waiting` AS (
  SELECT `r`.`id` AS `registration_id`, `o`.`id` AS `mail_id`, `o`.`next_attempt_at` AS `at`
  FROM `mail_outbox` AS `o`
  JOIN `registrations` AS `r` ON `r`.`paid` = 1
  JOIN `participants` AS `p` ON `p`.`id` = `r`.`participant_id`
  JOIN `users` AS `u` ON `u`.`id` = `r`.`user_id`
  JOIN `events` AS `e` ON `e`.`id` = `r`.`event_id`
  WHERE `o`.`status` = 'pending' AND `o`.`attempts` = 0 AND `o`.`subject` LIKE 'Zahlung eingegangen: %'
    AND `o`.`recipients` = json_array(`u`.`email`)
    AND `o`.`subject` = 'Zahlung eingegangen: ' || `p`.`first_name` || ' ' || `p`.`last_name` || ' – ' || `e`.`title`
    -- The confirmation that queued it, ten minutes before its time: not the same child's paid
    -- registration at another event of the same title.
    AND EXISTS (
      SELECT 1 FROM `registration_history` AS `h`
      WHERE `h`.`registration_id` = `r`.`id` AND `h`.`action` = 'payment_confirmed'
        AND `h`.`created_at` BETWEEN `o`.`next_attempt_at` - 660000 AND `o`.`next_attempt_at` - 540000
    )
)
UPDATE `registrations` SET `payment_mail_at` = (SELECT max(`at`) FROM `waiting` WHERE `waiting`.`registration_id` = `registrations`.`id`)
WHERE `id` IN (SELECT `registration_id` FROM `waiting`);--> statement-breakpoint
DELETE FROM `mail_outbox` WHERE `status` = 'pending' AND `attempts` = 0 AND `subject` LIKE 'Zahlung eingegangen: %' AND `id` IN (
  SELECT `o`.`id`
  FROM `mail_outbox` AS `o`
  JOIN `registrations` AS `r` ON `r`.`payment_mail_at` IS NOT NULL
  JOIN `participants` AS `p` ON `p`.`id` = `r`.`participant_id`
  JOIN `users` AS `u` ON `u`.`id` = `r`.`user_id`
  JOIN `events` AS `e` ON `e`.`id` = `r`.`event_id`
  WHERE `o`.`recipients` = json_array(`u`.`email`)
    AND `o`.`subject` = 'Zahlung eingegangen: ' || `p`.`first_name` || ' ' || `p`.`last_name` || ' – ' || `e`.`title`
);
