CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`username` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`password_hash` text NOT NULL,
	`admin_type` text DEFAULT 'NORMAL' NOT NULL,
	`role_id` integer,
	`status` text DEFAULT 'VALID' NOT NULL,
	`must_change_password` integer DEFAULT true NOT NULL,
	`last_login_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_operator_username_uq` ON `accounts` (`operator_id`,`username`);--> statement-breakpoint
CREATE INDEX `accounts_operator_created_idx` ON `accounts` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `accounts_operator_role_idx` ON `accounts` (`operator_id`,`role_id`);--> statement-breakpoint
CREATE TABLE `captcha_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`answer_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `captcha_expires_idx` ON `captcha_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`username` text NOT NULL,
	`client` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `login_attempts_lookup_idx` ON `login_attempts` (`operator_id`,`username`,`client`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_attempts_created_idx` ON `login_attempts` (`created_at`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`name` text NOT NULL,
	`code` text NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'VALID' NOT NULL,
	`menu_codes` text NOT NULL,
	`remark` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `roles_operator_created_idx` ON `roles` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `roles_operator_code_uq` ON `roles` (`operator_id`,`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `roles_operator_name_uq` ON `roles` (`operator_id`,`name`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`operator_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ip` text,
	`user_agent` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_operator_account_idx` ON `sessions` (`operator_id`,`account_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `operation_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`operator_code` text NOT NULL,
	`table_name` text NOT NULL,
	`module` text NOT NULL,
	`operation_type` text NOT NULL,
	`account` text,
	`email` text,
	`old_data` text,
	`new_data` text,
	`url` text,
	`request_body` text,
	`response_data` text,
	`ip` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `operation_logs_operator_created_idx` ON `operation_logs` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `menus` (
	`code` text PRIMARY KEY NOT NULL,
	`parent_code` text,
	`area` text NOT NULL,
	`group_name` text NOT NULL,
	`kind` text NOT NULL,
	`url` text,
	`title_key` text NOT NULL,
	`code_prefix` text,
	`sort` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `operator_domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`domain` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_domains_domain_uq` ON `operator_domains` (`domain`);--> statement-breakpoint
CREATE INDEX `operator_domains_operator_idx` ON `operator_domains` (`operator_id`);--> statement-breakpoint
CREATE TABLE `operators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`platform_id` integer NOT NULL,
	`parent_id` integer,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`kind` text DEFAULT 'OPERATOR' NOT NULL,
	`sub` integer DEFAULT 0 NOT NULL,
	`edition` text DEFAULT 'standard' NOT NULL,
	`status` text DEFAULT 'VALID' NOT NULL,
	`valid_until` integer,
	`contact_name` text,
	`contact_phone` text,
	`contact_email` text,
	`home_url` text,
	`logo_key` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `platforms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_code_uq` ON `operators` (`code`);--> statement-breakpoint
CREATE INDEX `operators_parent_idx` ON `operators` (`parent_id`);--> statement-breakpoint
CREATE TABLE `parameter_settings` (
	`operator_id` integer PRIMARY KEY NOT NULL,
	`default_language` text DEFAULT 'en' NOT NULL,
	`time_zone` text DEFAULT 'UTC' NOT NULL,
	`currency_code` text DEFAULT 'USD' NOT NULL,
	`currency_sign` text DEFAULT '$' NOT NULL,
	`currency_decimals` integer DEFAULT 0 NOT NULL,
	`area_codes` text DEFAULT '["86"]' NOT NULL,
	`document` text DEFAULT '{}' NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `platforms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
