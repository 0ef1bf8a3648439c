-- No offers once the event has started (DECISIONS.md): offers end at the event's start at the
-- latest since this release (waiting-list.server.ts). Open offers made before it, held past the
-- start, end at the start now; one already past it runs out at the scheduler's next turn.
UPDATE `registrations` SET `offer_expires_at` = (SELECT `starts_at` FROM `events` WHERE `events`.`id` = `registrations`.`event_id`)
WHERE `application_status` = 'open' AND `offer_expires_at` IS NOT NULL
  AND `offer_expires_at` > (SELECT `starts_at` FROM `events` WHERE `events`.`id` = `registrations`.`event_id`);
