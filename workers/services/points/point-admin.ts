import { eq } from "drizzle-orm";
import { connectors, points } from "../../../db/schema";
import { Conflict, Invalid } from "../../../domain/errors";
import { z } from "zod";
import { pointInput, pointStatusInput } from "../../../domain/schemas/equipment";
import { owned } from "../../../tenants/scoped";
import { chargePointName } from "../../ocpp/identity";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { findStation } from "../stations/stations";
import { generateChargerKey, hashChargerKey, keyBytesOf } from "../../auth/charger-key";
import { command } from "../remote/remote-control";
import { findPoint, pointDetail } from "./points";

/**
 * Creating a point creates its connectors (SPEC.md §3): from the list given, or one per
 * connector with the point's type and an even share of its power. The serial number (the
 * chargeBoxId) is unique across the platform.
 */
export async function createPoint(ctx: Ctx, raw: unknown) {
  const input = pointInput.parse(raw);
  await findStation(ctx, input.stationId);
  const [taken] = await ctx.db.select({ id: points.id }).from(points).where(eq(points.serialNumber, input.serialNumber)).limit(1);
  if (taken) throw new Invalid("validation.serialTaken", {}, { serialNumber: "validation.serialTaken" });
  const now = new Date(ctx.now());
  const [created] = await ctx.db
    .insert(points)
    .values({
      operatorId: ctx.operator.id,
      stationId: input.stationId,
      serialNumber: input.serialNumber,
      pointNo: input.pointNo,
      name: input.name,
      type: input.type,
      ratedPowerW: Math.round(input.ratedPower * 1000),
      connectorCount: input.connectorCount,
      privateType: input.privateType,
      status: "INVALID",
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!created) throw new Invalid("validation.serialTaken", {}, { serialNumber: "validation.serialTaken" });
  const share = Math.round((input.ratedPower * 1000) / input.connectorCount);
  const list =
    input.connectors ??
    Array.from({ length: input.connectorCount }, (_, i) => ({
      connectorId: i + 1,
      standard: input.type === "AC" ? ("IEC2" as const) : ("IEC1" as const),
      power: share / 1000,
      chargeSpeed: input.type === "AC" ? ("SLOW" as const) : ("QUICK" as const),
      name: undefined,
    }));
  await ctx.db.batch([
    ctx.db.insert(connectors).values(
      list.map((c) => ({
        operatorId: ctx.operator.id,
        pointId: created.id,
        connectorNo: c.connectorId,
        name: c.name ?? null,
        standard: c.standard,
        powerW: Math.round(c.power * 1000),
        chargeSpeed: c.chargeSpeed,
      })),
    ),
    auditRow(ctx, { table: "points", module: "point", type: "CREATE", newData: input }),
  ]);
  return pointDetail(ctx, { id: created.id });
}

/**
 * Enable or disable a point (SPEC.md §4): a point cannot be enabled before its station is.
 * A connected charger is told at once with ChangeAvailability (Inoperative or Operative); a
 * session already running finishes, and remote starts are refused while disabled (issue #3).
 */
export async function setPointStatus(ctx: Ctx, id: number, raw: unknown) {
  const { status } = pointStatusInput.parse(raw);
  const { point } = await findPoint(ctx, { id });
  if (status === "VALID") {
    const station = await findStation(ctx, point.stationId);
    if (station.status !== "VALID") throw new Conflict("errors.stationDisabled");
  }
  await ctx.db.batch([
    ctx.db.update(points).set({ status, updatedAt: new Date(ctx.now()) }).where(owned(ctx, points, eq(points.id, id))),
    auditRow(ctx, { table: "points", module: "point", type: "UPDATE", oldData: { id, status: point.status }, newData: { id, status } }),
  ]);
  const stub = ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));
  const availability = await stub.changeAvailability({ connectorId: 0, type: status === "VALID" ? "Operative" : "Inoperative" });
  return {
    id,
    status,
    availability: availability.ok ? availability.response.status : availability.reason,
  };
}

export const keyInput = z.object({ push: z.boolean().default(false) });

/**
 * A new charger key (20 random bytes), shown once as 40 hex characters; only its keyed hash is
 * kept and the old key stops working at once. With `push`, a connected charger first receives
 * the key through ChangeConfiguration AuthorizationKey; if it refuses or is offline, nothing
 * changes.
 */
export async function rotateChargerKey(ctx: Ctx, id: number, raw: unknown = {}) {
  const { push } = keyInput.parse(raw);
  const { point } = await findPoint(ctx, { id });
  const key = generateChargerKey();
  if (push) await command(ctx, { id }, "ChangeConfiguration", { key: "AuthorizationKey", value: key });
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db
      .update(points)
      .set({ keyHash: hashChargerKey(keyBytesOf(key)!, ctx.env.CHARGER_KEY_PEPPER), keySetAt: now, updatedAt: now })
      .where(owned(ctx, points, eq(points.id, point.id))),
    auditRow(ctx, { table: "points", module: "point", type: "UPDATE", newData: { id: point.id, key: "rotated", pushed: push } }),
  ]);
  return { pointId: point.id, serialNumber: point.serialNumber, key };
}
