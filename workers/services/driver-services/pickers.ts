import { asc, eq, or, sql } from "drizzle-orm";
import { containing } from "../../../db/like";
import { customerGroups, customers, points, stations } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { choicesQuery } from "../../../domain/schemas/driver-services";
import { owned, visible, visibleStations } from "../../../tenants/scope";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * The customers and groups the driver-services screens pick from (vehicles, offline lists,
 * reservations): capped and narrowed by typing (docs/rules/lists.md "Pickers").
 */
export const PICKER_MENUS = ["users.vehicle", "users.offlineUserList", "operation.reservation"];
const PICKER_LIMIT = 50;

/** "First Last", as lists show and search a customer. */
export const customerNameSql = sql<string>`${customers.firstName} || ' ' || ${customers.lastName}`;

/** One of the operator's customers; another operator's is 404. */
export async function findCustomer(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select({ id: customers.id, name: customerNameSql, groupId: customers.groupId })
    .from(customers)
    .where(owned(ctx, customers, eq(customers.id, id)))
    .limit(1);
  if (!row) throw new NotFound("driverServices.errors.customerNotFound");
  return row;
}

export const customerChoices = verb({ menu: PICKER_MENUS }, async (ctx, raw: unknown) => {
  const { keyword } = choicesQuery.parse(raw);
  return ctx.db
    .select({ id: customers.id, name: customerNameSql, email: customers.email })
    .from(customers)
    .where(owned(ctx, customers, keyword ? or(containing(customerNameSql, keyword), containing(customers.email, keyword)) : undefined))
    .orderBy(asc(customers.firstName), asc(customers.lastName), asc(customers.id))
    .limit(PICKER_LIMIT);
});

export const groupChoices = verb({ menu: "users.offlineUserList" }, async (ctx, raw: unknown) => {
  const { keyword } = choicesQuery.parse(raw);
  return ctx.db
    .select({ id: customerGroups.id, name: customerGroups.name, code: customerGroups.code })
    .from(customerGroups)
    .where(owned(ctx, customerGroups, keyword ? or(containing(customerGroups.name, keyword), containing(customerGroups.code, keyword)) : undefined))
    .orderBy(asc(customerGroups.name), asc(customerGroups.id))
    .limit(PICKER_LIMIT);
});

/** Stations and their points for the push form and the reservation form, capped like the equipment pickers. */
export const pointChoices = verb({ menu: ["users.offlineUserList", "operation.reservation", "sub.operation.reservation"] }, async (ctx) => {
  // A sub-operator picks among the devices assigned to it (tenants/scope.ts `visible`).
  const [stationRows, pointRows] = await Promise.all([
    ctx.db.select({ id: stations.id, name: stations.name }).from(stations).where(visibleStations(ctx)).orderBy(asc(stations.name)).limit(1000),
    ctx.db
      .select({ id: points.id, serialNumber: points.serialNumber, stationId: points.stationId, connectorCount: points.connectorCount })
      .from(points)
      .where(visible(ctx, points, points.id))
      .orderBy(asc(points.serialNumber))
      .limit(1000),
  ]);
  return { stations: stationRows, points: pointRows };
});
