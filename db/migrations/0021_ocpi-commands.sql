CREATE TABLE `ocpi_commands` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`uid` text NOT NULL,
	`command` text NOT NULL,
	`request` text NOT NULL,
	`location_id` text,
	`evse_uid` text,
	`connector_id` text,
	`session_id` text,
	`reservation_id` text,
	`token_uid` text,
	`response_result` text,
	`response_timeout` integer,
	`response_message` text,
	`send_error` text,
	`deadline_at` integer,
	`result` text,
	`result_message` text,
	`result_at` integer,
	`timed_out` integer DEFAULT false NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_commands_operator_uid_uq` ON `ocpi_commands` (`operator_id`,`uid`);--> statement-breakpoint
CREATE INDEX `ocpi_commands_operator_created_idx` ON `ocpi_commands` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `ocpi_commands_operator_deadline_idx` ON `ocpi_commands` (`operator_id`,`deadline_at`);