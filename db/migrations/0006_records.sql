CREATE TABLE `charge_records` (
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
	`receipt_token` text NOT NULL,
	`bill_code` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `charge_records_operator_start_idx` ON `charge_records` (`operator_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_point_idx` ON `charge_records` (`operator_id`,`point_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_tag_idx` ON `charge_records` (`operator_id`,`id_tag`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_status_idx` ON `charge_records` (`operator_id`,`status`,`start_at`);--> statement-breakpoint
CREATE INDEX `charge_records_operator_customer_idx` ON `charge_records` (`operator_id`,`customer_id`,`start_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `charge_records_receipt_token_uq` ON `charge_records` (`receipt_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `charge_records_bill_code_uq` ON `charge_records` (`bill_code`);--> statement-breakpoint
CREATE TABLE `daily_charge_totals` (
	`operator_id` integer NOT NULL,
	`day` text NOT NULL,
	`point_id` integer NOT NULL,
	`sessions` integer DEFAULT 0 NOT NULL,
	`energy_wh` integer DEFAULT 0 NOT NULL,
	`duration_s` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	`priced_sessions` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `daily_charge_totals_uq` ON `daily_charge_totals` (`operator_id`,`day`,`point_id`);--> statement-breakpoint
CREATE INDEX `daily_charge_totals_point_idx` ON `daily_charge_totals` (`operator_id`,`point_id`,`day`);