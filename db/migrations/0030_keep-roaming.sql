-- joinOcpi now takes effect (docs/rules/settings.md): an operator already roaming with a registered
-- partner keeps roaming; the others keep what they had stored.
UPDATE `operators` SET `join_ocpi` = 1 WHERE `id` IN (SELECT `operator_id` FROM `ocpi_platforms`);
