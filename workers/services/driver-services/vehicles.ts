import { count, desc, eq, ne } from "drizzle-orm";
import { containing, containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { customers, vehicles } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { vehicleInput, vehicleListQuery, type VehicleInput } from "../../../domain/schemas/driver-services";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { findCustomer, customerNameSql } from "./pickers";
import { customerJoin } from "../drivers/joins";

/** User management › Vehicles (docs/rules/driver-services.md "Vehicles"). */
export const VEHICLE_MENU = "users.vehicle";

type VehicleRow = typeof vehicles.$inferSelect;

export const presentVehicle = (v: VehicleRow, customerName: string | null) => ({
  id: v.id,
  name: v.name,
  customerId: v.customerId,
  customerName,
  plate: v.plate,
  brand: v.brand,
  model: v.model,
  default: v.isDefault,
  remark: v.remark,
  createdAt: v.createdAt.toISOString(),
  updatedAt: v.updatedAt.toISOString(),
});
export type Vehicle = ReturnType<typeof presentVehicle>;

const columns = { vehicle: vehicles, customerName: customerNameSql };

/** Vehicles, newest first, filtered by name, plate, owner (docs/rules/lists.md). */
export const listVehicles = verb({ menu: VEHICLE_MENU }, async (ctx, raw: unknown) => {
  const q = vehicleListQuery.parse(raw);
  const where = owned(
    ctx,
    vehicles,
    containingIf(vehicles.name, q.name),
    containingIf(vehicles.plate, q.plate),
    q.customerId ? eq(vehicles.customerId, q.customerId) : undefined,
    q.customer ? containing(customerNameSql, q.customer) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db.select(columns).from(vehicles).innerJoin(customers, customerJoin(ctx, vehicles.customerId)).where(where).orderBy(desc(vehicles.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(vehicles).innerJoin(customers, customerJoin(ctx, vehicles.customerId)).where(where))[0].total,
  );
  return { ...page, records: page.records.map((r) => presentVehicle(r.vehicle, r.customerName)) };
});

async function findVehicle(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select(columns).from(vehicles).innerJoin(customers, customerJoin(ctx, vehicles.customerId)).where(owned(ctx, vehicles, eq(vehicles.id, id))).limit(1);
  if (!row) throw new NotFound("driverServices.errors.vehicleNotFound");
  return row;
}

export const vehicleDetail = verb({ menu: VEHICLE_MENU }, async (ctx, id: number) => {
  const row = await findVehicle(ctx, id);
  return presentVehicle(row.vehicle, row.customerName);
});

const rowValues = (input: VehicleInput) => ({
  name: input.name,
  customerId: input.customerId,
  plate: input.plate,
  brand: input.brand,
  model: input.model,
  isDefault: input.default,
  remark: input.remark,
});

/**
 * A vehicle made default takes the default from the customer's other vehicles in the same batch;
 * the partial unique index keeps one default per customer whatever runs meanwhile.
 */
const clearOtherDefaults = (ctx: UserCtx, customerId: number, except?: number) =>
  ctx.db
    .update(vehicles)
    .set({ isDefault: false, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, vehicles, eq(vehicles.customerId, customerId), eq(vehicles.isDefault, true), except ? ne(vehicles.id, except) : undefined));

export const createVehicle = verb({ menu: VEHICLE_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = vehicleInput.parse(raw);
  const owner = await findCustomer(ctx, input.customerId);
  const values = rowValues(input);
  const now = new Date(ctx.now());
  const insert = ctx.db
    .insert(vehicles)
    .values(ownedRow(ctx, { ...values, createdAt: now, updatedAt: now }))
    .returning();
  const audit = auditRow(ctx, { table: "vehicles", module: "vehicle", type: "CREATE", newData: values });
  const created = input.default ? (await ctx.db.batch([clearOtherDefaults(ctx, input.customerId), insert, audit]))[1][0] : (await ctx.db.batch([insert, audit]))[0][0];
  return presentVehicle(created, owner.name);
});

export const updateVehicle = verb({ menu: VEHICLE_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findVehicle(ctx, id);
  const input = vehicleInput.parse(raw);
  const owner = await findCustomer(ctx, input.customerId);
  const values = rowValues(input);
  const update = ctx.db
    .update(vehicles)
    .set({ ...values, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, vehicles, eq(vehicles.id, id)))
    .returning();
  const audit = auditRow(ctx, { table: "vehicles", module: "vehicle", type: "UPDATE", oldData: presentVehicle(before.vehicle, before.customerName), newData: values });
  const updated = input.default ? (await ctx.db.batch([clearOtherDefaults(ctx, input.customerId, id), update, audit]))[1][0] : (await ctx.db.batch([update, audit]))[0][0];
  return presentVehicle(updated, owner.name);
});

export const deleteVehicle = verb({ menu: VEHICLE_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findVehicle(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(vehicles).where(owned(ctx, vehicles, eq(vehicles.id, id))),
    auditRow(ctx, { table: "vehicles", module: "vehicle", type: "DELETE", oldData: presentVehicle(before.vehicle, before.customerName) }),
  ]);
  return null;
});
