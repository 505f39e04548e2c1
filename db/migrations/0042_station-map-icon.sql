-- A station's map icon (SPEC §5 images: at most 80 KB), an upload of the operator's like its logo:
-- the marker drivers' and operators' maps show for the station (docs/rules/equipment.md "Images").
ALTER TABLE `stations` ADD `map_icon_key` text;
