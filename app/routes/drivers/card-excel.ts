import { readSheetRows } from "~/lib/excel";

/**
 * The card import's template columns, in order (docs/rules/drivers.md "Card import"): the browser
 * reads the workbook, the server checks each row (POST /customer-service/rf-card/import).
 */
export const CARD_IMPORT_COLUMNS = [
  "idTag",
  "cardName",
  "deliveryType",
  "ownerEmail",
  "expiryDate",
  "pickupNumber",
  "pickupPhone",
  "pickupAddress",
  "trackingNumber",
  "recipientName",
  "recipientPhone",
  "recipientAddress",
] as const;

const UPPER_CASE = new Set<(typeof CARD_IMPORT_COLUMNS)[number]>(["deliveryType"]);

export const readCardRows = (file: File) => readSheetRows(file, CARD_IMPORT_COLUMNS, { upperCase: UPPER_CASE, prefix: "drivers.import", emptyKey: "drivers.validation.importEmpty" });
