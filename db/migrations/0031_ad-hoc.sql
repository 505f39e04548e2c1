CREATE TABLE `ad_hoc_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`handle` text NOT NULL,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`id_tag` text NOT NULL,
	`email` text,
	`status` text NOT NULL,
	`payment_id` integer NOT NULL,
	`transaction_id` integer,
	`client_secret` text,
	`request_key` text,
	`fingerprint` text NOT NULL,
	`client` text NOT NULL,
	`error` text,
	`authorised_at` integer,
	`stop_asked_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ad_hoc_sessions_handle_uq` ON `ad_hoc_sessions` (`handle`);--> statement-breakpoint
CREATE UNIQUE INDEX `ad_hoc_sessions_operator_tag_uq` ON `ad_hoc_sessions` (`operator_id`,`id_tag`);--> statement-breakpoint
CREATE UNIQUE INDEX `ad_hoc_sessions_operator_key_uq` ON `ad_hoc_sessions` (`operator_id`,`request_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `ad_hoc_sessions_live_connector_uq` ON `ad_hoc_sessions` (`point_id`,`connector_no`) WHERE "ad_hoc_sessions"."status" in ('AWAITING_PAYMENT', 'STARTING', 'CHARGING');--> statement-breakpoint
CREATE INDEX `ad_hoc_sessions_operator_status_idx` ON `ad_hoc_sessions` (`operator_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `ad_hoc_sessions_client_idx` ON `ad_hoc_sessions` (`client`,`created_at`);--> statement-breakpoint
CREATE INDEX `ad_hoc_sessions_operator_transaction_idx` ON `ad_hoc_sessions` (`operator_id`,`transaction_id`);
