CREATE TABLE `diagnostics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`type` integer DEFAULT 1 NOT NULL,
	`location` text NOT NULL,
	`file_name` text,
	`status` integer DEFAULT 1 NOT NULL,
	`requested_at` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `diagnostics_operator_point_idx` ON `diagnostics` (`operator_id`,`point_id`,`requested_at`);--> statement-breakpoint
CREATE TABLE `sub_operator_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`sub_operator_id` integer NOT NULL,
	`station_id` integer,
	`point_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sub_operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`station_id`) REFERENCES `stations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sub_operator_devices_operator_sub_idx` ON `sub_operator_devices` (`operator_id`,`sub_operator_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sub_operator_devices_point_uq` ON `sub_operator_devices` (`sub_operator_id`,`point_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sub_operator_devices_station_uq` ON `sub_operator_devices` (`sub_operator_id`,`station_id`);--> statement-breakpoint
ALTER TABLE `operators` ADD `authorized_ac_connectors` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `operators` ADD `authorized_dc_connectors` integer DEFAULT 0 NOT NULL;