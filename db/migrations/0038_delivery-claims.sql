ALTER TABLE `charge_records` ADD `bill_push_claimed_at` integer;
--> statement-breakpoint
ALTER TABLE `charge_records` ADD `invoice_claimed_at` integer;
