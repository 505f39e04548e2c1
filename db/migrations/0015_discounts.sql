CREATE TABLE `charge_record_discounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`transaction_id` integer NOT NULL,
	`source` text NOT NULL,
	`card_id` integer,
	`amount` integer NOT NULL,
	`consumed` integer NOT NULL,
	`applied` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`card_id`) REFERENCES `discount_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `charge_record_discounts_uq` ON `charge_record_discounts` (`operator_id`,`transaction_id`,`source`);--> statement-breakpoint
CREATE INDEX `charge_record_discounts_card_idx` ON `charge_record_discounts` (`operator_id`,`card_id`);--> statement-breakpoint
CREATE TABLE `discount_cards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`strategy_id` integer NOT NULL,
	`code` text NOT NULL,
	`customer_id` integer,
	`status` text DEFAULT 'INVALID' NOT NULL,
	`remaining` integer NOT NULL,
	`valid_from` integer,
	`expires_at` integer,
	`activated_at` integer,
	`cancelled_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`strategy_id`) REFERENCES `discount_strategies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "discount_cards_remaining_ck" CHECK("discount_cards"."remaining" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_cards_code_uq` ON `discount_cards` (`operator_id`,`code`);--> statement-breakpoint
CREATE INDEX `discount_cards_strategy_idx` ON `discount_cards` (`operator_id`,`strategy_id`,`id`);--> statement-breakpoint
CREATE INDEX `discount_cards_customer_idx` ON `discount_cards` (`operator_id`,`customer_id`,`status`);--> statement-breakpoint
CREATE TABLE `discount_strategies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`unit` text NOT NULL,
	`quota` integer NOT NULL,
	`discount` integer,
	`start_date` text,
	`end_date` text,
	`months` integer,
	`activation_code` text,
	`generate_number` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `discount_strategies_operator_idx` ON `discount_strategies` (`operator_id`,`id`);--> statement-breakpoint
ALTER TABLE `charge_records` ADD `member_discount_cost` integer;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `card_discount_cost` integer;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `voucher_cost` integer;