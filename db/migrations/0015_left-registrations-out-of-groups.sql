-- A rejected or cancelled registration kept its group until now; it leaves it from here on
-- (registration-decision.server.ts), and the ones left behind go now.
DELETE FROM `group_members` WHERE `registration_id` IN (SELECT `id` FROM `registrations` WHERE `application_status` IN ('rejected', 'cancelled'));
