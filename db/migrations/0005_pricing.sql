CREATE TABLE `charge_strategies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`current_version_id` integer,
	`deleted_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `charge_strategies_operator_updated_idx` ON `charge_strategies` (`operator_id`,`deleted_at`,`updated_at`);--> statement-breakpoint
CREATE TABLE `charge_strategy_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`strategy_id` integer NOT NULL,
	`version` integer NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`prices` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`strategy_id`) REFERENCES `charge_strategies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `charge_strategy_versions_strategy_version_uq` ON `charge_strategy_versions` (`strategy_id`,`version`);--> statement-breakpoint
CREATE INDEX `charge_strategy_versions_operator_strategy_idx` ON `charge_strategy_versions` (`operator_id`,`strategy_id`,`version`);--> statement-breakpoint
ALTER TABLE `points` ADD `price_pushed_version_id` integer;--> statement-breakpoint
CREATE INDEX `points_operator_strategy_idx` ON `points` (`operator_id`,`charge_strategy_id`);--> statement-breakpoint
ALTER TABLE `transactions` ADD `strategy_version_id` integer;