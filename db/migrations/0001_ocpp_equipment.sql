CREATE TABLE `alarms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`level` text NOT NULL,
	`type` text NOT NULL,
	`message` text,
	`status` text DEFAULT 'Undisposed' NOT NULL,
	`comment` text,
	`occurred_at` integer NOT NULL,
	`recovered_at` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `alarms_operator_status_idx` ON `alarms` (`operator_id`,`status`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `alarms_point_open_idx` ON `alarms` (`point_id`,`connector_no`,`status`);--> statement-breakpoint
CREATE TABLE `connectors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`code` text,
	`name` text,
	`standard` text NOT NULL,
	`power_w` integer NOT NULL,
	`charge_speed` text NOT NULL,
	`status` text,
	`error_code` text,
	`status_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connectors_point_no_uq` ON `connectors` (`point_id`,`connector_no`);--> statement-breakpoint
CREATE INDEX `connectors_operator_status_idx` ON `connectors` (`operator_id`,`status`);--> statement-breakpoint
CREATE TABLE `id_tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`id_tag` text NOT NULL,
	`status` text DEFAULT 'Accepted' NOT NULL,
	`expiry_date` integer,
	`parent_id_tag` text,
	`kind` text DEFAULT 'RFID' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `id_tags_operator_tag_uq` ON `id_tags` (`operator_id`,`id_tag`);--> statement-breakpoint
CREATE TABLE `ocpp_reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`kind` text NOT NULL,
	`transaction_id` integer,
	`detail` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ocpp_reviews_operator_created_idx` ON `ocpp_reviews` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `point_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text,
	`detail` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `point_events_operator_point_idx` ON `point_events` (`operator_id`,`point_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `points` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`station_id` integer NOT NULL,
	`serial_number` text NOT NULL,
	`point_no` text NOT NULL,
	`name` text NOT NULL,
	`code` text,
	`type` text NOT NULL,
	`rated_power_w` integer NOT NULL,
	`connector_count` integer NOT NULL,
	`private_type` text DEFAULT 'Public' NOT NULL,
	`status` text DEFAULT 'INVALID' NOT NULL,
	`online` integer DEFAULT false NOT NULL,
	`online_changed_at` integer,
	`vendor` text,
	`model` text,
	`firmware_version` text,
	`box_serial_number` text,
	`iccid` text,
	`imsi` text,
	`meter_serial_number` text,
	`meter_type` text,
	`last_boot_at` integer,
	`key_hash` text,
	`key_set_at` integer,
	`firmware_status` text,
	`diagnostics_status` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`station_id`) REFERENCES `stations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `points_serial_number_uq` ON `points` (`serial_number`);--> statement-breakpoint
CREATE INDEX `points_operator_station_idx` ON `points` (`operator_id`,`station_id`);--> statement-breakpoint
CREATE INDEX `points_operator_status_idx` ON `points` (`operator_id`,`status`,`online`);--> statement-breakpoint
CREATE TABLE `stations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`lat` text,
	`lng` text,
	`parking_fee` integer DEFAULT false NOT NULL,
	`parking_fee_amount` integer,
	`service_phone` text,
	`maintainer` text,
	`rank` integer DEFAULT 0 NOT NULL,
	`price` text,
	`business_hours` text,
	`description` text,
	`logo_key` text,
	`time_zone` text,
	`power_limit_w` integer,
	`status` text DEFAULT 'INVALID' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stations_operator_rank_idx` ON `stations` (`operator_id`,`rank`);--> statement-breakpoint
CREATE INDEX `stations_operator_status_idx` ON `stations` (`operator_id`,`status`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`id_tag` text NOT NULL,
	`auth_status` text NOT NULL,
	`reservation_id` integer,
	`meter_start_wh` integer NOT NULL,
	`start_at` integer NOT NULL,
	`meter_stop_wh` integer,
	`stop_at` integer,
	`stop_reason` text,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`abnormal_reason` text,
	`strategy_snapshot` text,
	`energy_wh` integer,
	`duration_s` integer,
	`billed_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_start_uq` ON `transactions` (`point_id`,`connector_no`,`id_tag`,`meter_start_wh`,`start_at`);--> statement-breakpoint
CREATE INDEX `transactions_operator_status_idx` ON `transactions` (`operator_id`,`status`,`start_at`);--> statement-breakpoint
CREATE INDEX `transactions_point_idx` ON `transactions` (`point_id`,`status`);--> statement-breakpoint
ALTER TABLE `parameter_settings` ADD `heartbeat_interval_s` integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE `parameter_settings` ADD `disabled_point_boot` text DEFAULT 'Pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `parameter_settings` ADD `remote_id_tag` text;