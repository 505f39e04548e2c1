-- Roaming drivers at our chargers (docs/rules/ocpi.md "CPO role", "Partners' drivers at our chargers"):
-- the tokens eMSPs push to us, the sessions and CDRs we push to them with their push state, the
-- commands they send us, and the charge record's partner (docs/rules/billing.md "Roaming at our chargers").
CREATE TABLE `ocpi_cpo_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`party_id` text NOT NULL,
	`uid` text NOT NULL,
	`type` text NOT NULL,
	`contract_id` text NOT NULL,
	`whitelist` text NOT NULL,
	`valid` integer NOT NULL,
	`data` text NOT NULL,
	`last_updated` integer NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_cpo_tokens_object_uq` ON `ocpi_cpo_tokens` (`operator_id`,`platform_id`,`country_code`,`party_id`,`uid`,`type`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_tokens_operator_uid_idx` ON `ocpi_cpo_tokens` (`operator_id`,upper("uid"));
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_tokens_operator_received_idx` ON `ocpi_cpo_tokens` (`operator_id`,`received_at`);
--> statement-breakpoint
CREATE TABLE `ocpi_cpo_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`token_country_code` text NOT NULL,
	`token_party_id` text NOT NULL,
	`token_uid` text NOT NULL,
	`token_type` text NOT NULL,
	`contract_id` text NOT NULL,
	`auth_method` text NOT NULL,
	`authorization_reference` text,
	`point_id` integer NOT NULL,
	`connector_no` integer NOT NULL,
	`location_id` text NOT NULL,
	`evse_uid` text NOT NULL,
	`connector_id` text NOT NULL,
	`transaction_id` integer,
	`status` text NOT NULL,
	`energy_wh` integer DEFAULT 0 NOT NULL,
	`cost_excl` integer,
	`cost_incl` integer,
	`currency` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`push_state` text DEFAULT 'PENDING' NOT NULL,
	`push_error` text,
	`push_attempts` integer DEFAULT 0 NOT NULL,
	`pushed_at` integer,
	`last_updated` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_cpo_sessions_transaction_uq` ON `ocpi_cpo_sessions` (`transaction_id`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_sessions_operator_start_idx` ON `ocpi_cpo_sessions` (`operator_id`,`start_at`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_sessions_operator_point_idx` ON `ocpi_cpo_sessions` (`operator_id`,`point_id`,`status`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_sessions_status_idx` ON `ocpi_cpo_sessions` (`status`,`pushed_at`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_sessions_push_idx` ON `ocpi_cpo_sessions` (`push_state`,`last_updated`);
--> statement-breakpoint
CREATE TABLE `ocpi_cpo_cdrs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`session_id` integer NOT NULL,
	`cdr_id` text NOT NULL,
	`data` text NOT NULL,
	`currency` text NOT NULL,
	`total_excl` integer NOT NULL,
	`total_incl` integer NOT NULL,
	`energy_wh` integer NOT NULL,
	`start_at` integer NOT NULL,
	`push_state` text DEFAULT 'PENDING' NOT NULL,
	`push_error` text,
	`push_attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`accepted_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `ocpi_cpo_sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_cpo_cdrs_session_uq` ON `ocpi_cpo_cdrs` (`session_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_cpo_cdrs_operator_cdr_uq` ON `ocpi_cpo_cdrs` (`operator_id`,`cdr_id`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_cdrs_operator_start_idx` ON `ocpi_cpo_cdrs` (`operator_id`,`start_at`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_cdrs_push_idx` ON `ocpi_cpo_cdrs` (`push_state`,`next_attempt_at`);
--> statement-breakpoint
CREATE TABLE `ocpi_cpo_commands` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`command` text NOT NULL,
	`response_url` text NOT NULL,
	`request` text NOT NULL,
	`response` text NOT NULL,
	`result` text,
	`result_error` text,
	`result_at` integer,
	`session_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_commands_operator_created_idx` ON `ocpi_cpo_commands` (`operator_id`,`created_at`);
--> statement-breakpoint
ALTER TABLE `charge_records` ADD `roaming_platform_id` integer;
--> statement-breakpoint
CREATE INDEX `charge_records_operator_roaming_idx` ON `charge_records` (`operator_id`,`roaming_platform_id`,`start_at`);
