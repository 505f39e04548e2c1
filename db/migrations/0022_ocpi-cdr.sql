PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_charge_records` (
	`transaction_id` integer PRIMARY KEY NOT NULL,
	`operator_id` integer NOT NULL,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`id_tag` text NOT NULL,
	`customer_id` integer,
	`start_at` integer NOT NULL,
	`status` text DEFAULT 'CHARGING' NOT NULL,
	`currency` text NOT NULL,
	`strategy_version_id` integer,
	`electric_cost` integer,
	`service_cost` integer,
	`reservation_cost` integer,
	`occupancy_cost` integer,
	`idle_during_cost` integer,
	`idle_after_cost` integer,
	`discount_cost` integer,
	`member_discount_cost` integer,
	`card_discount_cost` integer,
	`voucher_cost` integer,
	`tax_cost` integer,
	`total_cost` integer,
	`paid_cost` integer,
	`balance_before` integer,
	`balance_after` integer,
	`paid_by` text,
	`unplug_at` integer,
	`reservation_start_at` integer,
	`reservation_end_at` integer,
	`priced_at` integer,
	`pricing_phase` text,
	`receipt_token` text NOT NULL,
	`bill_code` text NOT NULL,
	`bill_pushed_at` integer,
	`bill_push_error` text,
	`bill_push_attempts` integer DEFAULT 0 NOT NULL,
	`invoice_number` text,
	`invoiced_at` integer,
	`invoice_error` text,
	`invoice_attempts` integer DEFAULT 0 NOT NULL,
	`source` text DEFAULT 'OCPP' NOT NULL,
	`roaming` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_charge_records`("transaction_id", "operator_id", "point_id", "connector_no", "id_tag", "customer_id", "start_at", "status", "currency", "strategy_version_id", "electric_cost", "service_cost", "reservation_cost", "occupancy_cost", "idle_during_cost", "idle_after_cost", "discount_cost", "member_discount_cost", "card_discount_cost", "voucher_cost", "tax_cost", "total_cost", "paid_cost", "balance_before", "balance_after", "paid_by", "unplug_at", "reservation_start_at", "reservation_end_at", "priced_at", "pricing_phase", "receipt_token", "bill_code", "bill_pushed_at", "bill_push_error", "bill_push_attempts", "invoice_number", "invoiced_at", "invoice_error", "invoice_attempts", "source", "roaming", "created_at", "updated_at") SELECT "transaction_id", "operator_id", "point_id", "connector_no", "id_tag", "customer_id", "start_at", "status", "currency", "strategy_version_id", "electric_cost", "service_cost", "reservation_cost", "occupancy_cost", "idle_during_cost", "idle_after_cost", "discount_cost", "member_discount_cost", "card_discount_cost", "voucher_cost", "tax_cost", "total_cost", "paid_cost", "balance_before", "balance_after", "paid_by", "unplug_at", "reservation_start_at", "reservation_end_at", "priced_at", "pricing_phase", "receipt_token", "bill_code", "bill_pushed_at", "bill_push_error", "bill_push_attempts", "invoice_number", "invoiced_at", "invoice_error", "invoice_attempts", "source", "roaming", "created_at", "updated_at" FROM `charge_records`;--> statement-breakpoint
DROP TABLE `charge_records`;--> statement-breakpoint
ALTER TABLE `__new_charge_records` RENAME TO `charge_records`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `charge_records_operator_start_idx` ON `charge_records` (`operator_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_point_idx` ON `charge_records` (`operator_id`,`point_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_tag_idx` ON `charge_records` (`operator_id`,`id_tag`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_status_idx` ON `charge_records` (`operator_id`,`status`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_customer_idx` ON `charge_records` (`operator_id`,`customer_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_pricing_phase_idx` ON `charge_records` (`pricing_phase`);--> statement-breakpoint
CREATE UNIQUE INDEX `charge_records_receipt_token_uq` ON `charge_records` (`receipt_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `charge_records_bill_code_uq` ON `charge_records` (`bill_code`);--> statement-breakpoint
ALTER TABLE `ocpi_cdrs` ADD `billing_status` text DEFAULT 'PENDING' NOT NULL;--> statement-breakpoint
ALTER TABLE `ocpi_cdrs` ADD `charge_record_id` integer;--> statement-breakpoint
CREATE INDEX `ocpi_cdrs_billing_idx` ON `ocpi_cdrs` (`billing_status`,`received_at`);