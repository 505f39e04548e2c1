CREATE TABLE `content_texts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`kind` text NOT NULL,
	`lang` text NOT NULL,
	`content` text NOT NULL,
	`updated_by` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_texts_operator_kind_lang_idx` ON `content_texts` (`operator_id`,`kind`,`lang`);--> statement-breakpoint
CREATE TABLE `feedback` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`customer_id` integer,
	`creator` text NOT NULL,
	`content` text NOT NULL,
	`status` text DEFAULT 'UNPROCESSED' NOT NULL,
	`reply` text,
	`processed_by` text,
	`processed_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `feedback_operator_created_idx` ON `feedback` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `feedback_operator_status_idx` ON `feedback` (`operator_id`,`status`,`created_at`);