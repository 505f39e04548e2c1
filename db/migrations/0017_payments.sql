CREATE TABLE `payment_cards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`channel_type` integer NOT NULL,
	`customer_ref` text NOT NULL,
	`payment_method_ref` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_cards_customer_uq` ON `payment_cards` (`operator_id`,`customer_id`,`channel_type`);--> statement-breakpoint
CREATE TABLE `payment_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`type` integer NOT NULL,
	`name` text NOT NULL,
	`environment` text NOT NULL,
	`bank_id` text DEFAULT '' NOT NULL,
	`bank_name` text DEFAULT '' NOT NULL,
	`gateway` text DEFAULT '' NOT NULL,
	`current_account` text DEFAULT '' NOT NULL,
	`minimum_value` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`credentials` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_channels_operator_type_uq` ON `payment_channels` (`operator_id`,`type`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`captured` integer DEFAULT 0 NOT NULL,
	`refunded` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`intent_ref` text,
	`bill_id` integer,
	`transaction_id` integer,
	`attempt` integer DEFAULT 1 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `payment_channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bill_id`) REFERENCES `bills`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_intent_uq` ON `payments` (`operator_id`,`intent_ref`);--> statement-breakpoint
CREATE INDEX `payments_operator_bill_idx` ON `payments` (`operator_id`,`bill_id`);--> statement-breakpoint
CREATE INDEX `payments_operator_transaction_idx` ON `payments` (`operator_id`,`transaction_id`);--> statement-breakpoint
CREATE INDEX `payments_operator_status_idx` ON `payments` (`operator_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_operator_customer_idx` ON `payments` (`operator_id`,`customer_id`,`created_at`);