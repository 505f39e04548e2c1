CREATE INDEX `transactions_operator_tag_idx` ON `transactions` (`operator_id`,upper("id_tag"));
