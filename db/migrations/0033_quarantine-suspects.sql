ALTER TABLE `points` ADD `quarantined_until` integer;--> statement-breakpoint
ALTER TABLE `points` ADD `quarantine_connections` integer;--> statement-breakpoint
CREATE INDEX `transactions_open_idx` ON `transactions` (`operator_id`,`start_at`) WHERE "transactions"."stop_at" is null;--> statement-breakpoint
CREATE INDEX `ocpp_reviews_transaction_idx` ON `ocpp_reviews` (`operator_id`,`transaction_id`) WHERE "ocpp_reviews"."transaction_id" is not null;
