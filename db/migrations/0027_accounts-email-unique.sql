UPDATE `accounts` SET `email` = NULL WHERE trim(`email`) = '';--> statement-breakpoint
UPDATE `accounts` SET `email` = NULL WHERE `email` IS NOT NULL AND EXISTS (SELECT 1 FROM `accounts` AS `older` WHERE `older`.`operator_id` = `accounts`.`operator_id` AND lower(`older`.`email`) = lower(`accounts`.`email`) AND `older`.`id` < `accounts`.`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_operator_email_uq` ON `accounts` (`operator_id`,lower("email")) WHERE "accounts"."email" IS NOT NULL;
