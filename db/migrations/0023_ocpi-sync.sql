CREATE TABLE `ocpi_pulls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`module` text NOT NULL,
	`state` text NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`objects` integer DEFAULT 0 NOT NULL,
	`total` integer,
	`skipped` integer DEFAULT 0 NOT NULL,
	`problems` text DEFAULT '[]' NOT NULL,
	`window_to` integer,
	`last_success_at` integer,
	`last_error` text,
	`started_at` integer,
	`finished_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_pulls_module_uq` ON `ocpi_pulls` (`operator_id`,`platform_id`,`module`);--> statement-breakpoint
CREATE TABLE `ocpi_token_pushes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`platform_id` integer NOT NULL,
	`uid` text NOT NULL,
	`type` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`queued_at` integer NOT NULL,
	`pushed_at` integer,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`platform_id`) REFERENCES `ocpi_platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ocpi_token_pushes_token_uq` ON `ocpi_token_pushes` (`operator_id`,`platform_id`,`uid`);--> statement-breakpoint
CREATE INDEX `ocpi_token_pushes_operator_uid_idx` ON `ocpi_token_pushes` (`operator_id`,`uid`);--> statement-breakpoint
CREATE INDEX `ocpi_token_pushes_state_idx` ON `ocpi_token_pushes` (`state`,`queued_at`);