PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_bills` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`cost` integer NOT NULL,
	`balance_before` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`member_level_before` text,
	`member_level_after` text,
	`type` text NOT NULL,
	`payment_method` text NOT NULL,
	`status` text NOT NULL,
	`remark` text,
	`transaction_number` text,
	`transaction_id` integer,
	`phase` text,
	`applied` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bills_member_covered" CHECK(type <> 'Member' or cost <= 0 or balance_after >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_bills`("id", "operator_id", "customer_id", "cost", "balance_before", "balance_after", "member_level_before", "member_level_after", "type", "payment_method", "status", "remark", "transaction_number", "transaction_id", "phase", "applied", "created_at", "updated_at") SELECT "id", "operator_id", "customer_id", "cost", "balance_before", "balance_after", "member_level_before", "member_level_after", "type", "payment_method", "status", "remark", "transaction_number", "transaction_id", "phase", "applied", "created_at", "updated_at" FROM `bills`;--> statement-breakpoint
DROP TABLE `bills`;--> statement-breakpoint
ALTER TABLE `__new_bills` RENAME TO `bills`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `bills_transaction_phase_uq` ON `bills` (`operator_id`,`transaction_id`,`phase`);--> statement-breakpoint
CREATE INDEX `bills_operator_created_idx` ON `bills` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bills_operator_customer_idx` ON `bills` (`operator_id`,`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bills_operator_status_idx` ON `bills` (`operator_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `bills_operator_number_idx` ON `bills` (`operator_id`,`transaction_number`);--> statement-breakpoint
CREATE INDEX `bills_operator_type_idx` ON `bills` (`operator_id`,`type`,`created_at`);