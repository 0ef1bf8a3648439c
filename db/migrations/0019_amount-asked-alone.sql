-- A registration whose amount a mail after the enrolment asked for on its own (moved up, an offer
-- taken, a rejection revoked into a place, a booked payment taken back after its thank-you mail):
-- the confirmation page shows it as a payment of its own. Until now the page read the history;
-- the registrations asked for alone are marked from it. A payment taken back within the ten
-- minutes its "Zahlung eingegangen" mail waited asked nothing (the mail was withdrawn).
ALTER TABLE `registrations` ADD `amount_asked_alone` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `registrations` SET `amount_asked_alone` = 1 WHERE `id` IN (SELECT `registration_id` FROM `registration_history` WHERE `action` IN ('moved_from_waiting_list', 'offer_accepted', 'rejection_revoked'));--> statement-breakpoint
UPDATE `registrations` SET `amount_asked_alone` = 1 WHERE `id` IN (
  SELECT `revoked`.`registration_id` FROM `registration_history` AS `revoked`
  WHERE `revoked`.`action` = 'payment_revoked'
    AND `revoked`.`created_at` >= 600000 + (
      SELECT max(`confirmed`.`created_at`) FROM `registration_history` AS `confirmed`
      WHERE `confirmed`.`registration_id` = `revoked`.`registration_id` AND `confirmed`.`action` = 'payment_confirmed' AND `confirmed`.`created_at` <= `revoked`.`created_at`
    )
);
