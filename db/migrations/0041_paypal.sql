-- PayPal's webhook events applied per operator, by event id (docs/rules/payments.md "PayPal"):
-- a delivery repeated or replayed changes nothing.
CREATE TABLE `payment_webhook_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`channel_type` integer NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`outcome` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_webhook_events_operator_event_uq` ON `payment_webhook_events` (`operator_id`,`channel_type`,`event_id`);
