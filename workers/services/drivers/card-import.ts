import { inArray, sql } from "drizzle-orm";
import { customers, idTags, rfCards } from "../../../db/schema";
import { batchOf, IN_LIST, isUniqueViolation, slices } from "../../../db/statements";
import { Conflict, Invalid } from "../../../domain/errors";
import { cardImportInput, cardImportRow, type CardImportRow } from "../../../domain/schemas/drivers";
import { owned, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { importRow } from "../import-rows";
import { verb } from "../verb";
import { CARD_MENU } from "./cards";
import { changedCards, tokensChanged } from "../ocpi/token-push";

/** Card rows per insert: eighteen bound columns each (docs/rules/lists.md "D1's 100 parameters"). */
const CARD_ROWS = 5;

const upper = (tag: string) => tag.toUpperCase();

/**
 * Import cards from the rows of an Excel sheet (docs/rules/drivers.md "Card import"), as the point
 * import does: the browser reads the workbook and sends its rows; every row is checked, and when
 * any row is bad the answer lists each bad cell as `"<line>.<field>"` with its message and nothing
 * is imported. A good file creates every card, VALID, in one batch with its log row: all or none.
 */
export const importCards = verb({ menu: CARD_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const { rows } = cardImportInput.parse(raw);
  const fields: Record<string, string> = {};
  const good: { line: number; row: CardImportRow }[] = [];
  // What each row names, read loosely, so a row with another bad cell still has its tag and owner checked.
  const named: { line: number; idTag?: string; ownerEmail?: string | null }[] = [];

  rows.forEach((value, index) => {
    const { cells, line, row } = importRow(cardImportRow, value, index, fields);
    const tag = cardImportRow.in.shape.idTag.safeParse(cells.idTag);
    const owner = cardImportRow.in.shape.ownerEmail.safeParse(cells.ownerEmail);
    named.push({ line, idTag: tag.success ? tag.data : undefined, ownerEmail: owner.success ? owner.data : undefined });
    if (row) good.push({ line, row });
  });

  const tags = [...new Set(named.flatMap((n) => (n.idTag ? [upper(n.idTag)] : [])))];
  const emails = [...new Set(named.flatMap((n) => (n.ownerEmail ? [n.ownerEmail.toLowerCase()] : [])))];
  const [cardsFound, tagsFound, ownersFound] = await Promise.all([
    Promise.all(
      slices(tags, IN_LIST).map((slice) =>
        ctx.db
          .select({ idTag: rfCards.idTag })
          .from(rfCards)
          .where(owned(ctx, rfCards, inArray(sql`upper(${rfCards.idTag})`, slice))),
      ),
    ),
    Promise.all(
      slices(tags, IN_LIST).map((slice) =>
        ctx.db
          .select({ idTag: idTags.idTag })
          .from(idTags)
          .where(owned(ctx, idTags, inArray(sql`upper(${idTags.idTag})`, slice))),
      ),
    ),
    Promise.all(
      slices(emails, IN_LIST).map((slice) =>
        ctx.db
          .select({ id: customers.id, email: customers.email })
          .from(customers)
          .where(owned(ctx, customers, inArray(sql`lower(${customers.email})`, slice))),
      ),
    ),
  ]);
  const registered = new Set([...cardsFound.flat(), ...tagsFound.flat()].map((t) => upper(t.idTag)));
  const ownerIds = new Map(ownersFound.flat().map((c) => [c.email.toLowerCase(), c.id]));
  const seen = new Set<string>();
  for (const { line, idTag, ownerEmail } of named) {
    if (ownerEmail && !ownerIds.has(ownerEmail.toLowerCase())) fields[`${line}.ownerEmail`] = "drivers.validation.ownerUnknown";
    if (!idTag) continue;
    if (registered.has(upper(idTag))) fields[`${line}.idTag`] = "drivers.validation.idTagTaken";
    else if (seen.has(upper(idTag))) fields[`${line}.idTag`] = "drivers.validation.idTagTwice";
    seen.add(upper(idTag));
  }
  const badLines = new Set(Object.keys(fields).map((key) => key.split(".")[0]));
  if (badLines.size) throw new Invalid("drivers.errors.importRejected", { count: badLines.size }, fields);

  const now = new Date(ctx.now());
  const cards = good.map(({ row }) => {
    const { line: _line, ownerEmail, ...card } = row;
    const customerId = ownerEmail ? ownerIds.get(ownerEmail.toLowerCase())! : null;
    return { ...card, expiryDate: card.expiryDate === null ? null : new Date(card.expiryDate), customerId, bindStatus: customerId === null ? ("UNBIND" as const) : ("BIND" as const), status: "VALID" as const, createdAt: now, updatedAt: now };
  });
  try {
    // One batch is one transaction: a tag taken meanwhile fails it whole, and nothing is imported.
    await batchOf(ctx.db, [
      ...slices(cards, CARD_ROWS).map((slice) => ctx.db.insert(rfCards).values(ownedRows(ctx, slice))),
      auditRow(ctx, { table: "rf_cards", module: "rfCard", type: "CREATE", newData: { imported: cards.map((c) => c.idTag) } }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict("drivers.errors.importRaced");
    throw error;
  }
  // Partners that take our tokens hear of them (docs/rules/ocpi.md "Token pushes").
  await tokensChanged(ctx, changedCards(cards.map((c) => c.idTag)));
  return { imported: cards.length };
});
