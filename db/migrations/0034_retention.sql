CREATE TABLE `retention_archives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`kind` text NOT NULL,
	`month` text NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`file_key` text NOT NULL,
	`rows` integer NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`first_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	`status` text DEFAULT 'WRITING' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `retention_archives_key_uq` ON `retention_archives` (`file_key`);--> statement-breakpoint
CREATE INDEX `retention_archives_operator_month_idx` ON `retention_archives` (`operator_id`,`status`,`month`,`kind`);--> statement-breakpoint
CREATE TABLE `retention_progress` (
	`operator_id` integer PRIMARY KEY NOT NULL,
	`point_cursor` integer DEFAULT 0 NOT NULL,
	`sweep_day` text,
	`swept_at` integer,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
