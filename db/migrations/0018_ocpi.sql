CREATE TABLE `ocpi_cdrs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`party_id` text NOT NULL,
	`last_updated` integer NOT NULL,
	`received_at` integer NOT NULL,
	`cdr_id` text NOT NULL,
	`session_id` text,
	`token_uid` text NOT NULL,
	`location_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`kwh` text NOT NULL,
	`currency` text NOT NULL,
	`total_cost` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_cdrs_object_uq` ON `ocpi_cdrs` (`operator_id`,`platform_id`,`country_code`,`party_id`,`cdr_id`);--> statement-breakpoint
CREATE INDEX `ocpi_cdrs_operator_start_idx` ON `ocpi_cdrs` (`operator_id`,`start_at`);--> statement-breakpoint
CREATE TABLE `ocpi_locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`party_id` text NOT NULL,
	`last_updated` integer NOT NULL,
	`received_at` integer NOT NULL,
	`location_id` text NOT NULL,
	`name` text,
	`city` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_locations_object_uq` ON `ocpi_locations` (`operator_id`,`platform_id`,`country_code`,`party_id`,`location_id`);--> statement-breakpoint
CREATE INDEX `ocpi_locations_operator_updated_idx` ON `ocpi_locations` (`operator_id`,`last_updated`);--> statement-breakpoint
CREATE TABLE `ocpi_parties` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`party_id` text NOT NULL,
	`role` text NOT NULL,
	`business_name` text,
	`website` text,
	`status` text DEFAULT 'CONNECTED' NOT NULL,
	`last_updated` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_parties_operator_party_uq` ON `ocpi_parties` (`operator_id`,`platform_id`,`country_code`,`party_id`,`role`);--> statement-breakpoint
CREATE TABLE `ocpi_platforms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`versions_url` text,
	`partner_token` text,
	`our_token_hash` text,
	`our_token_kind` text,
	`register_status` text DEFAULT 'Unregistered' NOT NULL,
	`version` text,
	`partner_country_code` text,
	`partner_party_id` text,
	`endpoints` text,
	`last_error` text,
	`registered_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ocpi_platforms_operator_idx` ON `ocpi_platforms` (`operator_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_platforms_token_uq` ON `ocpi_platforms` (`our_token_hash`);--> statement-breakpoint
CREATE TABLE `ocpi_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`party_id` text NOT NULL,
	`last_updated` integer NOT NULL,
	`received_at` integer NOT NULL,
	`session_id` text NOT NULL,
	`status` text NOT NULL,
	`token_uid` text NOT NULL,
	`location_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`kwh` text NOT NULL,
	`currency` text NOT NULL,
	`total_cost` text,
	`cdr_id` text,
	`data` text NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_sessions_object_uq` ON `ocpi_sessions` (`operator_id`,`platform_id`,`country_code`,`party_id`,`session_id`);--> statement-breakpoint
CREATE INDEX `ocpi_sessions_operator_start_idx` ON `ocpi_sessions` (`operator_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `ocpi_sessions_operator_token_idx` ON `ocpi_sessions` (`operator_id`,upper("token_uid"));--> statement-breakpoint
CREATE TABLE `ocpi_tariffs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`party_id` text NOT NULL,
	`last_updated` integer NOT NULL,
	`received_at` integer NOT NULL,
	`tariff_id` text NOT NULL,
	`currency` text NOT NULL,
	`type` text,
	`data` text NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_tariffs_object_uq` ON `ocpi_tariffs` (`operator_id`,`platform_id`,`country_code`,`party_id`,`tariff_id`);--> statement-breakpoint
CREATE INDEX `ocpi_tariffs_operator_updated_idx` ON `ocpi_tariffs` (`operator_id`,`last_updated`);