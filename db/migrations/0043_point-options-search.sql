-- The point picker's search (docs/rules/lists.md "Pickers"; `workers/services/points/point-options.ts`
-- `pointOptions`): the operator's points whose serial number or name starts with what was typed,
-- case-insensitively. SQLite turns such a LIKE into a range on an index in NOCASE order, led by the tenant.
CREATE INDEX `points_operator_serial_nocase_idx` ON `points` (`operator_id`,`serial_number` COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `points_operator_name_nocase_idx` ON `points` (`operator_id`,`name` COLLATE NOCASE);
