-- Signed firmware versions (OCPP 2.0.1 L02, the 1.6 security extension's SignedUpdateFirmware):
-- the certificate that signed the file and the signature, both or neither.
ALTER TABLE `firmwares` ADD `signing_certificate` text;--> statement-breakpoint
ALTER TABLE `firmwares` ADD `signature` text;
