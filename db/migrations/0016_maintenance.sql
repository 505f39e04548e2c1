CREATE TABLE `account_deletion_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`contact` text NOT NULL,
	`customer_id` integer,
	`reason` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`processed_by` text,
	`processed_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_deletion_requests_operator_created_idx` ON `account_deletion_requests` (`operator_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `banners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`type` text NOT NULL,
	`file_key` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` integer NOT NULL,
	`audit_status` text DEFAULT 'UNAUDITED' NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`uploaded_by` text NOT NULL,
	`audited_by` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `banners_operator_sort_idx` ON `banners` (`operator_id`,`sort`,`id`);--> statement-breakpoint
CREATE TABLE `maintainer_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`maintainer_id` integer NOT NULL,
	`station_id` integer,
	`point_id` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`maintainer_id`) REFERENCES `maintainers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`station_id`) REFERENCES `stations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `maintainer_devices_operator_maintainer_idx` ON `maintainer_devices` (`operator_id`,`maintainer_id`);--> statement-breakpoint
CREATE INDEX `maintainer_devices_operator_point_idx` ON `maintainer_devices` (`operator_id`,`point_id`);--> statement-breakpoint
CREATE INDEX `maintainer_devices_operator_station_idx` ON `maintainer_devices` (`operator_id`,`station_id`);--> statement-breakpoint
CREATE TABLE `maintainers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`manufacturer` text,
	`warden_account` text,
	`fault_codes` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `maintainers_operator_account_uq` ON `maintainers` (`operator_id`,`account_id`);--> statement-breakpoint
CREATE INDEX `maintainers_operator_created_idx` ON `maintainers` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `maintenance_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`auto_open` integer DEFAULT false NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `maintenance_settings_operator_uq` ON `maintenance_settings` (`operator_id`);--> statement-breakpoint
CREATE TABLE `stored_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`file_key` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`uploaded_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stored_files_operator_created_idx` ON `stored_files` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `work_order_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`work_order_id` integer NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`account` text NOT NULL,
	`note` text,
	`maintainer_id` integer,
	`at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`work_order_id`) REFERENCES `work_orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `work_order_history_operator_order_idx` ON `work_order_history` (`operator_id`,`work_order_id`,`at`);--> statement-breakpoint
CREATE TABLE `work_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`alarm_id` integer,
	`source` text NOT NULL,
	`fault_code` text NOT NULL,
	`serial_number` text NOT NULL,
	`status` text DEFAULT 'ALREADY' NOT NULL,
	`abnormal_time` integer NOT NULL,
	`cause` text,
	`remarks` text,
	`maintainer_id` integer,
	`handling_process` text,
	`opinion` text,
	`processed_by` text,
	`processed_at` integer,
	`audit_result` text,
	`audit_opinion` text,
	`audited_by` text,
	`audited_at` integer,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`alarm_id`) REFERENCES `alarms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`maintainer_id`) REFERENCES `maintainers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `work_orders_operator_alarm_uq` ON `work_orders` (`operator_id`,`alarm_id`);--> statement-breakpoint
CREATE INDEX `work_orders_operator_created_idx` ON `work_orders` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `work_orders_operator_status_idx` ON `work_orders` (`operator_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `work_orders_operator_maintainer_idx` ON `work_orders` (`operator_id`,`maintainer_id`,`status`);