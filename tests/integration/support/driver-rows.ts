import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { createDb } from "../../../db/client";
import { customerGroups, customers, idTags, operators, rfCards } from "../../../db/schema";
import { uniqueTag } from "./drivers";

/**
 * Customers, groups, cards and app tokens written straight into D1, as their own screens would
 * leave them: the driver-services tests need drivers, not the driver screens.
 */
let counter = 0;

const db = () => createDb(env.DB);

export async function operatorIdOf(code: string) {
  const [operator] = await db().select({ id: operators.id }).from(operators).where(eq(operators.code, code));
  return operator.id;
}

export async function makeCustomerRow(operatorCode: string, overrides: Partial<typeof customers.$inferInsert> = {}) {
  const n = ++counter;
  const [row] = await db()
    .insert(customers)
    .values({
      operatorId: await operatorIdOf(operatorCode),
      firstName: "Ola",
      lastName: `Driver${n}`,
      gender: "FEMALE",
      email: `ola.${Date.now().toString(36)}.${n}@example.com`,
      country: "PL",
      zipCode: "00-001",
      evModel: "Kia EV6",
      ...overrides,
    })
    .returning();
  return row;
}

export async function makeGroupRow(operatorCode: string, memberIds: number[]) {
  const [group] = await db()
    .insert(customerGroups)
    .values({ operatorId: await operatorIdOf(operatorCode), name: "Fleet", code: uniqueTag("G"), leaderId: memberIds[0] })
    .returning();
  for (const id of memberIds) await db().update(customers).set({ groupId: group.id }).where(eq(customers.id, id));
  return group;
}

/** A card bound to `customerId` (or unbound with null), VALID unless told. */
export async function makeCardRow(operatorCode: string, customerId: number | null, overrides: Partial<typeof rfCards.$inferInsert> = {}) {
  const [card] = await db()
    .insert(rfCards)
    .values({
      operatorId: await operatorIdOf(operatorCode),
      idTag: uniqueTag("C"),
      deliveryType: "TAKE",
      customerId,
      bindStatus: customerId === null ? "UNBIND" : "BIND",
      ...overrides,
    })
    .returning();
  return card;
}

export async function makeAppTokenRow(operatorCode: string, customerId: number) {
  const [tag] = await db()
    .insert(idTags)
    .values({ operatorId: await operatorIdOf(operatorCode), idTag: uniqueTag("A"), kind: "APP", customerId })
    .returning();
  return tag;
}

/** What the card screens do to a card: block it, or unbind it from its owner. */
export const setCard = (id: number, values: Partial<typeof rfCards.$inferInsert>) => db().update(rfCards).set(values).where(eq(rfCards.id, id));

export { eventually } from "../../support/eventually";
