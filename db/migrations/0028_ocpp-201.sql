ALTER TABLE `points` ADD `ocpp_version` text DEFAULT 'AUTO' NOT NULL;--> statement-breakpoint
ALTER TABLE `points` ADD `connected_version` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `charger_transaction_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_charger_tx_uq` ON `transactions` (`point_id`,`charger_transaction_id`);--> statement-breakpoint
ALTER TABLE `charge_records` ADD `charger_transaction_id` text;