CREATE TABLE `local_list_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`list_id` integer NOT NULL,
	`id_tag` text NOT NULL,
	`status` text NOT NULL,
	`expiry_date` integer,
	`parent_id_tag` text,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`list_id`) REFERENCES `offline_lists`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `local_list_entries_point_tag_uq` ON `local_list_entries` (`operator_id`,`point_id`,upper("id_tag"));--> statement-breakpoint
CREATE INDEX `local_list_entries_list_idx` ON `local_list_entries` (`operator_id`,`list_id`,`point_id`);--> statement-breakpoint
CREATE TABLE `local_list_points` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`needs_full` integer DEFAULT true NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `local_list_points_point_uq` ON `local_list_points` (`operator_id`,`point_id`);--> statement-breakpoint
CREATE TABLE `offline_list_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`list_id` integer NOT NULL,
	`customer_id` integer,
	`group_id` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`list_id`) REFERENCES `offline_lists`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "offline_list_members_one_kind" CHECK(("offline_list_members"."customer_id" IS NULL) <> ("offline_list_members"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `offline_list_members_list_idx` ON `offline_list_members` (`operator_id`,`list_id`);--> statement-breakpoint
CREATE TABLE `offline_list_push_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`list_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`reason` text,
	`update_type` text,
	`list_version` integer,
	`entry_count` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`not_before` integer,
	`requested_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`answered_at` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`list_id`) REFERENCES `offline_lists`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `offline_list_push_items_list_idx` ON `offline_list_push_items` (`operator_id`,`list_id`,`id`);--> statement-breakpoint
CREATE INDEX `offline_list_push_items_point_idx` ON `offline_list_push_items` (`operator_id`,`point_id`,`id`);--> statement-breakpoint
CREATE INDEX `offline_list_push_items_due_idx` ON `offline_list_push_items` (`status`,`not_before`);--> statement-breakpoint
CREATE TABLE `offline_lists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`chargeable_type` text NOT NULL,
	`effective_time` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `offline_lists_operator_idx` ON `offline_lists` (`operator_id`,`id`);--> statement-breakpoint
CREATE TABLE `reservation_ids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	CONSTRAINT "reservation_ids_int32" CHECK("reservation_ids"."id" <= 2147483647)
);
--> statement-breakpoint
CREATE TABLE `reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`connector_id` integer NOT NULL,
	`id_tag` text NOT NULL,
	`parent_id_tag` text,
	`customer_id` integer,
	`status` text NOT NULL,
	`expiry_date` integer NOT NULL,
	`transaction_id` integer,
	`end_reason` text,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reservations_id_int32" CHECK("reservations"."id" <= 2147483647)
);
--> statement-breakpoint
CREATE INDEX `reservations_operator_expiry_idx` ON `reservations` (`operator_id`,`expiry_date`);--> statement-breakpoint
CREATE INDEX `reservations_operator_point_idx` ON `reservations` (`operator_id`,`point_id`,`connector_id`,`status`);--> statement-breakpoint
CREATE INDEX `reservations_status_expiry_idx` ON `reservations` (`status`,`expiry_date`);--> statement-breakpoint
CREATE TABLE `vehicles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`name` text NOT NULL,
	`plate` text NOT NULL,
	`brand` text,
	`model` text,
	`is_default` integer DEFAULT false NOT NULL,
	`remark` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `vehicles_operator_customer_idx` ON `vehicles` (`operator_id`,`customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `vehicles_one_default_uq` ON `vehicles` (`operator_id`,`customer_id`) WHERE "vehicles"."is_default" = 1;