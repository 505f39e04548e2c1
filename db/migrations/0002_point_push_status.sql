ALTER TABLE `points` ADD `station_type` text;--> statement-breakpoint
ALTER TABLE `points` ADD `charge_strategy_id` integer;--> statement-breakpoint
ALTER TABLE `points` ADD `price_push_status` text DEFAULT 'NotIssue' NOT NULL;--> statement-breakpoint
ALTER TABLE `points` ADD `currency_push_status` text DEFAULT 'NotIssue' NOT NULL;--> statement-breakpoint
ALTER TABLE `points` ADD `pre_auth_push_status` text DEFAULT 'NotIssue' NOT NULL;--> statement-breakpoint
ALTER TABLE `points` ADD `pushed_at` integer;