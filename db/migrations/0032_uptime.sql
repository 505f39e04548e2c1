CREATE TABLE `status_intervals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`status` text,
	`online` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`excluded_reason` text,
	`excluded_note` text,
	`excluded_by` text,
	`excluded_at` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `status_intervals_point_connector_start_uq` ON `status_intervals` (`point_id`,`connector_no`,`started_at`);--> statement-breakpoint
CREATE INDEX `status_intervals_operator_start_idx` ON `status_intervals` (`operator_id`,`started_at`);
