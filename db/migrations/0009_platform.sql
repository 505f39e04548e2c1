CREATE TABLE `package_bills` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`package_id` integer NOT NULL,
	`day` text NOT NULL,
	`ac_connectors` integer NOT NULL,
	`dc_connectors` integer NOT NULL,
	`ac_amount` integer NOT NULL,
	`dc_amount` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`recorded` integer DEFAULT false NOT NULL,
	`settled` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_id`) REFERENCES `price_packages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_bills_package_day_uq` ON `package_bills` (`package_id`,`day`);--> statement-breakpoint
CREATE INDEX `package_bills_operator_package_idx` ON `package_bills` (`operator_id`,`package_id`,`day`);--> statement-breakpoint
CREATE TABLE `price_packages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`ac_price` text NOT NULL,
	`dc_price` text NOT NULL,
	`currency` text NOT NULL,
	`currency_decimals` integer NOT NULL,
	`ac_connectors` integer NOT NULL,
	`dc_connectors` integer NOT NULL,
	`begin_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`remark` text,
	`voided_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `price_packages_operator_status_idx` ON `price_packages` (`operator_id`,`status`,`begin_at`);--> statement-breakpoint
CREATE INDEX `price_packages_status_idx` ON `price_packages` (`status`,`begin_at`);--> statement-breakpoint
ALTER TABLE `operators` ADD `valid_from` integer;--> statement-breakpoint
ALTER TABLE `operators` ADD `subscription_amount` integer;--> statement-breakpoint
ALTER TABLE `operators` ADD `charge_account` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `clearing_account` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `card_payment_account` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `paypal_account` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `opening_hours` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `eipa_account` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `eipa_password_sealed` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `join_ocpi` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `operators` ADD `provision_key` text;