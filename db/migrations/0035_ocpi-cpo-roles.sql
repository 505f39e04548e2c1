-- The CPO role beside the eMSP one (docs/rules/ocpi.md "CPO role"): a partner's role decides which
-- of our modules its token reaches; a station is published to roaming only when the operator says so.
ALTER TABLE `ocpi_platforms` ADD `role` text DEFAULT 'CPO' NOT NULL;
--> statement-breakpoint
-- A hub already registered is a hub: its credentials named the HUB role.
UPDATE `ocpi_platforms` SET `role` = 'HUB' WHERE `id` IN (SELECT `platform_id` FROM `ocpi_parties` WHERE `role` = 'HUB');
--> statement-breakpoint
ALTER TABLE `stations` ADD `publish_to_roaming` integer DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE `ocpi_cpo_pushes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`module` text NOT NULL,
	`object_id` text NOT NULL,
	`evse_uids` text,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`changed_at` integer NOT NULL,
	`pushed_at` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_cpo_pushes_object_uq` ON `ocpi_cpo_pushes` (`operator_id`,`platform_id`,`module`,`object_id`);
--> statement-breakpoint
CREATE INDEX `ocpi_cpo_pushes_state_idx` ON `ocpi_cpo_pushes` (`state`,`changed_at`);
--> statement-breakpoint
CREATE INDEX `stations_published_idx` ON `stations` (`operator_id`,`publish_to_roaming`,`updated_at`);
