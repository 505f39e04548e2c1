-- Drivers' feedback from public pages (docs/rules/content.md "Feedback"): the charger or the
-- receipt it is about, the contact the driver left, and the client it came from (what the limits count).
ALTER TABLE `feedback` ADD `point_id` integer REFERENCES points(id);--> statement-breakpoint
ALTER TABLE `feedback` ADD `transaction_id` integer;--> statement-breakpoint
ALTER TABLE `feedback` ADD `contact` text;--> statement-breakpoint
ALTER TABLE `feedback` ADD `client` text;--> statement-breakpoint
CREATE INDEX `feedback_point_created_idx` ON `feedback` (`point_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `feedback_transaction_created_idx` ON `feedback` (`transaction_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `feedback_client_created_idx` ON `feedback` (`client`,`created_at`);
