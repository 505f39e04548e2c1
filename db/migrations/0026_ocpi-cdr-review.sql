ALTER TABLE `ocpi_cdrs` ADD `hold_reason` text;--> statement-breakpoint
ALTER TABLE `ocpi_cdrs` ADD `credited` integer DEFAULT 0 NOT NULL;