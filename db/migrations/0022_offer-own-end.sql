-- An open waiting-list offer keeps its own end (made + the event's offer time) beside the end a
-- start moved earlier may have cut it to, so that a start moved later again gives the time back.
-- Offers open now keep the end they hold as their own: when they were made is only in the history
-- (written a moment after the offer), and the offer time may have changed since; an own end read
-- from there could lengthen an offer nobody moved. They run out within the week.
ALTER TABLE `registrations` ADD `offer_own_end` integer;--> statement-breakpoint
UPDATE `registrations` SET `offer_own_end` = `offer_expires_at` WHERE `offer_expires_at` IS NOT NULL;
