import { describe, expect, it } from "vitest";
import en from "../../domain/i18n/locales/en/drivers.json";
import { cardImportRow } from "../../domain/schemas/drivers";
import { CARD_IMPORT_COLUMNS, cardTemplateRows } from "~/routes/drivers/card-excel";

/** The card import template (docs/rules/drivers.md "Card import"). */
const t = (key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en) as string;

describe("the card import template", () => {
  it("has exactly the columns the import reads, in its order, with the required ones marked", () => {
    const [header] = cardTemplateRows(t);
    expect(header).toEqual(CARD_IMPORT_COLUMNS.map((c) => `${en.drivers.import.columns[c]}${c === "idTag" || c === "deliveryType" ? " *" : ""}`));
    // Every column of the row the server checks is one of the template's, and the other way round.
    expect([...CARD_IMPORT_COLUMNS].sort()).toEqual(Object.keys(cardImportRow.in.shape).filter((k) => k !== "line").sort());
  });

  it("has an example row the import accepts as it reads it, cell by position", () => {
    const [, example] = cardTemplateRows(t);
    const row = Object.fromEntries(CARD_IMPORT_COLUMNS.map((c, i) => [c, example[i] ?? undefined]).filter(([, v]) => v !== undefined));
    const parsed = cardImportRow.safeParse({ line: 2, ...row });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({ idTag: "CARD0001", deliveryType: "TAKE", ownerEmail: "anna.nowak@example.com" });
  });
});
