CREATE TABLE `fault_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`code` text NOT NULL,
	`source` text NOT NULL,
	`name` text NOT NULL,
	`level` text NOT NULL,
	`count` integer NOT NULL,
	`description` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fault_codes_operator_code_uq` ON `fault_codes` (`operator_id`,`code`);--> statement-breakpoint
CREATE TABLE `firmware_rollouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`firmware_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`wave` integer NOT NULL,
	`delivery` text DEFAULT 'Queued' NOT NULL,
	`status` text DEFAULT 'Issued' NOT NULL,
	`issued_at` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`firmware_id`) REFERENCES `firmwares`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `firmware_rollouts_uq` ON `firmware_rollouts` (`firmware_id`,`point_id`);--> statement-breakpoint
CREATE INDEX `firmware_rollouts_operator_firmware_idx` ON `firmware_rollouts` (`operator_id`,`firmware_id`,`point_id`);--> statement-breakpoint
CREATE INDEX `firmware_rollouts_operator_point_idx` ON `firmware_rollouts` (`operator_id`,`point_id`,`issued_at`);--> statement-breakpoint
CREATE TABLE `firmwares` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`version` text NOT NULL,
	`location` text NOT NULL,
	`retries` integer,
	`retry_interval_s` integer,
	`retrieve_date` integer,
	`description` text,
	`issued_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `firmwares_operator_version_uq` ON `firmwares` (`operator_id`,`version`);--> statement-breakpoint
CREATE TABLE `load_balancing_points` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`load_balancing_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`action` text DEFAULT 'set' NOT NULL,
	`delivery` text DEFAULT 'NotSent' NOT NULL,
	`detail` text,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`load_balancing_id`) REFERENCES `load_balancings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `load_balancing_points_uq` ON `load_balancing_points` (`load_balancing_id`,`point_id`);--> statement-breakpoint
CREATE INDEX `load_balancing_points_operator_point_idx` ON `load_balancing_points` (`operator_id`,`point_id`);--> statement-breakpoint
CREATE TABLE `load_balancings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`station_id` integer NOT NULL,
	`name` text NOT NULL,
	`power_limit_w` integer NOT NULL,
	`purpose` text NOT NULL,
	`stack_level` integer NOT NULL,
	`repeat` text NOT NULL,
	`slots` text NOT NULL,
	`valid_from` integer,
	`valid_to` integer,
	`status` text DEFAULT 'VALID' NOT NULL,
	`delivered_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`station_id`) REFERENCES `stations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `load_balancings_operator_station_idx` ON `load_balancings` (`operator_id`,`station_id`,`id`);