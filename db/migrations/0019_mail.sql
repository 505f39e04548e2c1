CREATE TABLE `deletion_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`ticket` text NOT NULL,
	`contact` text NOT NULL,
	`client` text NOT NULL,
	`customer_id` integer,
	`reason` text,
	`code_hash` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`confirmed_at` integer,
	`request_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`request_id`) REFERENCES `account_deletion_requests`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deletion_codes_ticket_uq` ON `deletion_codes` (`ticket`);--> statement-breakpoint
CREATE INDEX `deletion_codes_operator_contact_idx` ON `deletion_codes` (`operator_id`,`contact`,`created_at`);--> statement-breakpoint
CREATE INDEX `deletion_codes_client_idx` ON `deletion_codes` (`client`,`created_at`);--> statement-breakpoint
CREATE TABLE `receipt_mails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`transaction_id` integer NOT NULL,
	`to_address` text,
	`sent_at` integer,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipt_mails_operator_transaction_uq` ON `receipt_mails` (`operator_id`,`transaction_id`);--> statement-breakpoint
ALTER TABLE `mail_settings` ADD `link_origin` text;