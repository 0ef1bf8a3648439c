-- Written by hand: drizzle-kit splits an index expression at its commas. The expression is
-- germanNameOrder("last_name") of db/schema.ts, exactly as the user list sorts by it.
DROP INDEX `users_role_last_name_idx`;--> statement-breakpoint
CREATE INDEX `users_role_name_order_idx` ON `users` (`role`,replace(replace(replace(replace(replace(replace(replace("last_name", 'Ä', 'A'), 'ä', 'a'), 'Ö', 'O'), 'ö', 'o'), 'Ü', 'U'), 'ü', 'u'), 'ß', 'ss') collate nocase,"first_name" collate nocase,`id`);
