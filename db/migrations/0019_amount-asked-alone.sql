-- A registration whose amount a mail after the enrolment asked for on its own (moved up, an offer
-- taken, a rejection revoked into a place; later also a booked payment taken back): the
-- confirmation page shows it as a payment of its own. Until now the page read this from the
-- history; the registrations placed later are marked from it.
ALTER TABLE `registrations` ADD `amount_asked_alone` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `registrations` SET `amount_asked_alone` = 1 WHERE `id` IN (SELECT `registration_id` FROM `registration_history` WHERE `action` IN ('moved_from_waiting_list', 'offer_accepted', 'rejection_revoked'));
