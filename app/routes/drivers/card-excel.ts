import { readSheetRows, saveSheet, templateHeader } from "~/lib/excel";

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

type CardColumn = (typeof CARD_IMPORT_COLUMNS)[number];
const REQUIRED: ReadonlySet<CardColumn> = new Set(["idTag", "deliveryType"]);

/** One example card of the template: picked up, with an owner and an expiry (an instant with its offset). */
const EXAMPLE: Partial<Record<CardColumn, string>> = {
  idTag: "CARD0001",
  cardName: "Anna",
  deliveryType: "TAKE",
  ownerEmail: "anna.nowak@example.com",
  expiryDate: "2030-12-31T23:59:59Z",
  pickupNumber: "P-0001",
  pickupPhone: "+48 600 100 200",
  pickupAddress: "Marszałkowska 100, 00-026 Warszawa",
};

/** The card import template: exactly the columns the import reads, in its order, in the user's language, and one example row. */
export function cardTemplateRows(t: (key: string) => string): (string | null)[][] {
  return [templateHeader(t, "drivers.import", CARD_IMPORT_COLUMNS, REQUIRED), CARD_IMPORT_COLUMNS.map((column) => EXAMPLE[column] ?? null)];
}

export const downloadCardTemplate = (t: (key: string) => string) =>
  saveSheet(cardTemplateRows(t), `${t("drivers.import.templateFile")}.xlsx`, [16, 18, 14, 26, 24, 14, 18, 32, 18, 18, 18, 32]);
