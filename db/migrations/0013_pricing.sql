ALTER TABLE `charge_records` ADD `bill_pushed_at` integer;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `bill_push_error` text;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `bill_push_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `invoice_number` text;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `invoiced_at` integer;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `invoice_error` text;--> statement-breakpoint
ALTER TABLE `charge_records` ADD `invoice_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `daily_charge_totals` ADD `records` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `bill_pushed_at`;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `bill_push_error`;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `bill_push_attempts`;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `invoice_number`;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `invoiced_at`;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `invoice_error`;--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `invoice_attempts`;