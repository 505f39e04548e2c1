CREATE TABLE `invoice_systems` (
	`operator_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`url` text,
	`account` text DEFAULT '' NOT NULL,
	`password` text,
	`pac` text DEFAULT '' NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `mail_settings` (
	`operator_id` integer PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`host` text,
	`port` integer,
	`username` text,
	`tls_mode` text,
	`region` text,
	`access_key_id` text,
	`endpoint` text,
	`secret` text,
	`from_address` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `transactions` ADD `bill_pushed_at` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `bill_push_error` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `bill_push_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `invoice_number` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `invoiced_at` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `invoice_error` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `invoice_attempts` integer DEFAULT 0 NOT NULL;