CREATE TABLE `customer_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`code` text NOT NULL,
	`leader_id` integer,
	`deduction_account` text,
	`deduction_email` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`leader_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_groups_operator_code_uq` ON `customer_groups` (`operator_id`,upper("code"));--> statement-breakpoint
CREATE TABLE `customer_points` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`point_id`) REFERENCES `points`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_points_customer_point_uq` ON `customer_points` (`operator_id`,`customer_id`,`point_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`gender` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`country` text NOT NULL,
	`city` text,
	`zip_code` text NOT NULL,
	`district` text,
	`street` text,
	`house_number` text,
	`state` text,
	`complement` text,
	`cpf` text,
	`id_card` text,
	`avatar_key` text,
	`ev_model` text NOT NULL,
	`car_plate` text,
	`car_brand` text,
	`car_model` text,
	`member_level` text DEFAULT 'NORMAL' NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`overdraft_credit` integer DEFAULT 0 NOT NULL,
	`pay_way` text DEFAULT 'PERSONAL' NOT NULL,
	`group_id` integer,
	`charge_all_point` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'NORMAL' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_operator_email_uq` ON `customers` (`operator_id`,lower("email"));--> statement-breakpoint
CREATE INDEX `customers_operator_status_idx` ON `customers` (`operator_id`,`status`);--> statement-breakpoint
CREATE INDEX `customers_operator_group_idx` ON `customers` (`operator_id`,`group_id`);--> statement-breakpoint
CREATE INDEX `customers_operator_level_idx` ON `customers` (`operator_id`,`member_level`);--> statement-breakpoint
CREATE TABLE `rf_cards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`card_name` text,
	`id_tag` text NOT NULL,
	`status` text DEFAULT 'VALID' NOT NULL,
	`bind_status` text DEFAULT 'UNBIND' NOT NULL,
	`customer_id` integer,
	`expiry_date` integer,
	`delivery_type` text NOT NULL,
	`pickup_number` text,
	`pickup_phone` text,
	`pickup_address` text,
	`tracking_number` text,
	`recipient_name` text,
	`recipient_phone` text,
	`recipient_address` text,
	`replaces_card_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "rf_cards_bound_has_owner" CHECK(("rf_cards"."bind_status" = 'BIND') = ("rf_cards"."customer_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rf_cards_operator_tag_uq` ON `rf_cards` (`operator_id`,upper("id_tag"));--> statement-breakpoint
CREATE INDEX `rf_cards_operator_customer_idx` ON `rf_cards` (`operator_id`,`customer_id`);--> statement-breakpoint
CREATE INDEX `rf_cards_operator_status_idx` ON `rf_cards` (`operator_id`,`status`,`bind_status`);--> statement-breakpoint
DROP INDEX `id_tags_operator_tag_uq`;--> statement-breakpoint
ALTER TABLE `id_tags` ADD `customer_id` integer REFERENCES customers(id);--> statement-breakpoint
CREATE UNIQUE INDEX `id_tags_operator_tag_ci_uq` ON `id_tags` (`operator_id`,upper("id_tag"));