-- Roaming reservations (docs/rules/ocpi.md "Commands we take"; docs/rules/driver-services.md "Reservations"):
-- a partner's RESERVE_NOW is a row of `reservations`, marked with its partner and the partner's reservation_id.
ALTER TABLE `reservations` ADD `roaming_platform_id` integer;
--> statement-breakpoint
ALTER TABLE `reservations` ADD `roaming_reservation_id` text;
--> statement-breakpoint
CREATE INDEX `reservations_operator_roaming_idx` ON `reservations` (`operator_id`,`roaming_platform_id`,`roaming_reservation_id`);
