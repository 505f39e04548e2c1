import { and, count, desc, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { firmwareRollouts, firmwares, points } from "../../../db/schema";
import { batchOf, slices } from "../../../db/statements";
import { Conflict, NotFound } from "../../../domain/errors";
import type { FirmwareStatus, OcppRequest } from "../../../domain/ocpp";
import {
  FINAL_ROLLOUT_STATUSES,
  firmwareInput,
  firmwareIssueInput,
  firmwareListQuery,
  type FirmwareInput,
  type FirmwareWaveMessage,
  type RolloutStatus,
} from "../../../domain/schemas/operations";
import { owned, ownedRow, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, SystemCtx } from "../context";
import { callCharger } from "../remote/remote-control";
import { deviceChoices } from "../stations/choices";
import { verb } from "../verb";

/**
 * Operation and maintenance › Firmware updates (docs/rules/operations.md "Firmware"): versions
 * with the FTP address chargers fetch them from, issued to points through the firmware queue in
 * waves (UpdateFirmware, OCPP 1.6 §5.19), each point's rollout following its
 * FirmwareStatusNotifications (§4.5). An issued version is never deleted.
 */
export const FIRMWARE_MENUS = ["operation.ocppUpdateConfig"];

type Row = typeof firmwares.$inferSelect;

/** Rollout rows per insert: seven bound columns each, and the four of the update on conflict (D1's 100 parameters). */
const ROLLOUT_ROWS = 12;
/** Rollout entries a detail carries; an issue names at most 1 000 points. */
const ROLLOUT_LIMIT = 2000;

const present = (row: Row) => ({
  id: row.id,
  version: row.version,
  location: row.location,
  retries: row.retries,
  retryIntervalS: row.retryIntervalS,
  retrieveDate: row.retrieveDate?.toISOString() ?? null,
  description: row.description,
  signingCertificate: row.signingCertificate,
  signature: row.signature,
  signed: row.signature !== null,
  issued: row.issuedAt !== null,
  issuedAt: row.issuedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const columnsOf = (input: FirmwareInput) => ({
  version: input.version,
  location: input.location,
  retries: input.retries ?? null,
  retryIntervalS: input.retryIntervalS ?? null,
  retrieveDate: input.retrieveDate ? new Date(input.retrieveDate) : null,
  description: input.description || null,
  signingCertificate: input.signingCertificate || null,
  signature: input.signature || null,
});

async function findFirmware(ctx: Ctx, id: number) {
  const [row] = await ctx.db.select().from(firmwares).where(owned(ctx, firmwares, eq(firmwares.id, id))).limit(1);
  if (!row) throw new NotFound("operations.errors.firmwareNotFound");
  return row;
}

/** A version is unique within an operator (409), so a rollout always names one build. */
async function checkVersion(ctx: Ctx, version: string, self: number | null) {
  const [taken] = await ctx.db
    .select({ id: firmwares.id })
    .from(firmwares)
    .where(owned(ctx, firmwares, eq(firmwares.version, version), self === null ? undefined : sql`${firmwares.id} <> ${self}`))
    .limit(1);
  if (taken) throw new Conflict("operations.errors.versionExists", { version });
}

export const listFirmware = verb({ menu: FIRMWARE_MENUS }, async (ctx, raw: unknown) => {
  const q = firmwareListQuery.parse(raw);
  const where = owned(
    ctx,
    firmwares,
    containingIf(firmwares.version, q.version),
    q.issued === undefined ? undefined : q.issued === "true" ? isNotNull(firmwares.issuedAt) : isNull(firmwares.issuedAt),
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) => ctx.db.select().from(firmwares).where(where).orderBy(desc(firmwares.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(firmwares).where(where))[0].total,
  );
  const tallies = await rowsFor(
    page.records.map((r) => r.id),
    (slice) =>
      ctx.db
        .select({ id: firmwareRollouts.firmwareId, status: firmwareRollouts.status, n: count() })
        .from(firmwareRollouts)
        .where(owned(ctx, firmwareRollouts, inArray(firmwareRollouts.firmwareId, slice)))
        .groupBy(firmwareRollouts.firmwareId, firmwareRollouts.status),
  );
  return {
    ...page,
    records: page.records.map((r) => {
      const mine = tallies.filter((t) => t.id === r.id);
      return {
        ...present(r),
        pointCount: mine.reduce((sum, t) => sum + t.n, 0),
        installedCount: mine.find((t) => t.status === "Installed")?.n ?? 0,
      };
    }),
  };
});

/**
 * A version with its rollout: per point the latest status reported (`Issued` until the first
 * notification), whether its UpdateFirmware was delivered, and the firmware version the point
 * reported at its last boot.
 */
export const firmwareDetail = verb({ menu: FIRMWARE_MENUS }, async (ctx, id: number) => {
  const row = await findFirmware(ctx, id);
  const rollout = await ctx.db
    .select({ r: firmwareRollouts, serialNumber: points.serialNumber, firmwareVersion: points.firmwareVersion, lastBootAt: points.lastBootAt, online: points.online })
    .from(firmwareRollouts)
    .innerJoin(points, eq(points.id, firmwareRollouts.pointId))
    .where(owned(ctx, firmwareRollouts, eq(firmwareRollouts.firmwareId, id)))
    .orderBy(firmwareRollouts.wave, points.serialNumber)
    .limit(ROLLOUT_LIMIT);
  return {
    ...present(row),
    rollout: rollout.map(({ r, serialNumber, firmwareVersion, lastBootAt, online }) => ({
      pointId: r.pointId,
      serialNumber,
      status: r.status,
      updatedAt: r.updatedAt.toISOString(),
      delivery: r.delivery,
      wave: r.wave,
      issuedAt: r.issuedAt.toISOString(),
      online,
      firmwareVersion,
      // The version a point reports at its next boot (OCPP 1.6 §4.2) tells the install took.
      bootedSinceIssue: lastBootAt !== null && lastBootAt.getTime() > r.issuedAt.getTime(),
    })),
  };
});

export const createFirmware = verb({ menu: FIRMWARE_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  const input = firmwareInput.parse(raw);
  await checkVersion(ctx, input.version, null);
  const [[created]] = await ctx.db.batch([
    ctx.db.insert(firmwares).values(ownedRow(ctx, columnsOf(input))).returning(),
    auditRow(ctx, { table: "firmwares", module: "firmware", type: "CREATE", newData: input }),
  ]);
  return present(created);
});

export const updateFirmware = verb({ menu: FIRMWARE_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = firmwareInput.parse(raw);
  const before = await findFirmware(ctx, id);
  await checkVersion(ctx, input.version, id);
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(firmwares)
      .set({ ...columnsOf(input), updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, firmwares, eq(firmwares.id, id)))
      .returning(),
    auditRow(ctx, { table: "firmwares", module: "firmware", type: "UPDATE", oldData: before, newData: input }),
  ]);
  return present(updated);
});

/** 'version issued cannot be deleted': chargers may be installing it, and its rollout is the record. */
export const deleteFirmware = verb({ menu: FIRMWARE_MENUS, mutates: true }, async (ctx, id: number) => {
  const before = await findFirmware(ctx, id);
  if (before.issuedAt) throw new Conflict("operations.errors.versionIssued");
  // Conditional on still not issued, so an issue that lands meanwhile is never orphaned.
  const [[deleted]] = await ctx.db.batch([
    ctx.db
      .delete(firmwares)
      .where(owned(ctx, firmwares, eq(firmwares.id, id), isNull(firmwares.issuedAt)))
      .returning({ id: firmwares.id }),
    auditRow(ctx, { table: "firmwares", module: "firmware", type: "DELETE", oldData: before }),
  ]);
  if (!deleted) throw new Conflict("operations.errors.versionIssued");
  return { id };
});

/**
 * Issues a version to points: each gets its rollout row (`Issued`, waiting for its wave), the
 * version is marked issued, and the first wave goes to the firmware queue. Issuing again to a
 * point starts its rollout over. Another operator's point is 404.
 */
export const issueFirmware = verb({ menu: FIRMWARE_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = firmwareIssueInput.parse(raw);
  const firmware = await findFirmware(ctx, id);
  const pointIds = [...new Set(input.pointIds)];
  const found = await rowsFor(pointIds, (slice) => ctx.db.select({ id: points.id }).from(points).where(owned(ctx, points, inArray(points.id, slice))));
  if (found.length !== pointIds.length) throw new NotFound("errors.pointNotFound");
  const waveSize = input.waveSize ?? Number(ctx.env.FIRMWARE_WAVE_SIZE ?? 10);
  const now = new Date(ctx.now());
  const rows = pointIds.map((pointId, i) => ({ firmwareId: id, pointId, wave: Math.floor(i / waveSize), delivery: "Queued" as const, status: "Issued" as const, issuedAt: now, updatedAt: now }));
  await batchOf(ctx.db, [
    ...slices(rows, ROLLOUT_ROWS).map((slice) =>
      ctx.db
        .insert(firmwareRollouts)
        .values(ownedRows(ctx, slice))
        .onConflictDoUpdate({
          target: [firmwareRollouts.firmwareId, firmwareRollouts.pointId],
          set: { wave: sql`excluded.wave`, delivery: "Queued", status: "Issued", issuedAt: now, updatedAt: now },
        }),
    ),
    ctx.db
      .update(firmwares)
      .set({ issuedAt: firmware.issuedAt ?? now })
      .where(owned(ctx, firmwares, eq(firmwares.id, id))),
    auditRow(ctx, { table: "firmwares", module: "firmware", type: "UPDATE", newData: { id, version: firmware.version, issue: pointIds, waveSize } }),
  ]);
  await ctx.env.FIRMWARE.send({
    operatorId: ctx.operator.id,
    operatorCode: ctx.operator.code,
    firmwareId: id,
    wave: 0,
    pointIds: pointIds.slice(0, waveSize),
    rest: pointIds.slice(waveSize),
    waveSize,
  } satisfies FirmwareWaveMessage);
  return firmwareDetail(ctx, id);
});

/** Locations and, for one of them, its points with their firmware: what the issue dialog chooses from. */
export const firmwareChoices = verb({ menu: FIRMWARE_MENUS }, deviceChoices);

// ── the firmware queue's side and the charger's notifications ───────────────────────────────

export interface WaveOutcome {
  pointId: number;
  serialNumber: string;
  delivery: "Sent" | "Offline" | "Failed";
}

/**
 * One wave: the update to each of its points side by side, each rollout row then Sent (the
 * charger accepted), Offline, or Failed (an error, a refusal or no answer). An unsigned version
 * goes as UpdateFirmware (OCPP 1.6 §5.19; L01 on 2.0.1), a signed one as the security
 * extension's SignedUpdateFirmware (2.0.1's UpdateFirmware with its certificate and signature,
 * L02), so one rollout serves a mixed fleet (docs/rules/operations.md "Firmware"). A version
 * deleted meanwhile cannot be (it is issued), so a missing one means the message is stale and
 * nothing is sent.
 */
export const sendFirmwareWave = verb({ actors: ["system"] }, async (ctx, message: FirmwareWaveMessage): Promise<WaveOutcome[]> => {
  const [firmware] = await ctx.db.select().from(firmwares).where(owned(ctx, firmwares, eq(firmwares.id, message.firmwareId))).limit(1);
  if (!firmware || message.pointIds.length === 0) return [];
  const targets = await rowsFor(message.pointIds, (slice) =>
    ctx.db
      .select({ point: points, rolloutId: firmwareRollouts.id })
      .from(points)
      .innerJoin(firmwareRollouts, and(eq(firmwareRollouts.pointId, points.id), eq(firmwareRollouts.firmwareId, firmware.id)))
      .where(owned(ctx, points, inArray(points.id, slice))),
  );
  const deliver = updateOf(firmware, new Date(Math.max(firmware.retrieveDate?.getTime() ?? 0, ctx.now())).toISOString());
  return Promise.all(
    targets.map(async ({ point, rolloutId }): Promise<WaveOutcome> => {
      const delivery = await deliver(ctx, point, rolloutId);
      await ctx.db
        .update(firmwareRollouts)
        .set({ delivery, updatedAt: new Date(ctx.now()) })
        .where(owned(ctx, firmwareRollouts, eq(firmwareRollouts.firmwareId, firmware.id), eq(firmwareRollouts.pointId, point.id)));
      return { pointId: point.id, serialNumber: point.serialNumber, delivery };
    }),
  );
});

/** Statuses of a SignedUpdateFirmware answer that mean the charger will fetch the file. */
const SIGNED_TAKEN = new Set(["Accepted", "AcceptedCanceled"]);

/** How a version reaches one point: the call, and what its answer means for the rollout row. */
function updateOf(firmware: Row, retrieveDate: string) {
  const retry = {
    ...(firmware.retries !== null && { retries: firmware.retries }),
    ...(firmware.retryIntervalS !== null && { retryInterval: firmware.retryIntervalS }),
  };
  return async (ctx: SystemCtx, point: typeof points.$inferSelect, rolloutId: number): Promise<WaveOutcome["delivery"]> => {
    if (firmware.signingCertificate && firmware.signature) {
      // The rollout row's id is the request id the charger's signed status notifications carry.
      const payload: OcppRequest<"SignedUpdateFirmware"> = {
        requestId: rolloutId,
        firmware: { location: firmware.location, retrieveDateTime: retrieveDate, signingCertificate: firmware.signingCertificate, signature: firmware.signature },
        ...retry,
      };
      const outcome = await callCharger(ctx, point, "SignedUpdateFirmware", payload);
      if (!outcome.ok) return outcome.reason === "offline" ? "Offline" : "Failed";
      return SIGNED_TAKEN.has(outcome.response.status) ? "Sent" : "Failed";
    }
    const payload: OcppRequest<"UpdateFirmware"> = { location: firmware.location, retrieveDate, ...retry };
    const outcome = await callCharger(ctx, point, "UpdateFirmware", payload);
    return outcome.ok ? "Sent" : outcome.reason === "offline" ? "Offline" : "Failed";
  };
}

/**
 * A FirmwareStatusNotification moves the point's newest delivered rollout (OCPP 1.6 §4.5). Idle,
 * which a charger reports when it is doing nothing, never undoes a rollout that has ended.
 * Answers the firmware it moved, if any.
 */
export const recordFirmwareStatus = verb({ actors: ["system"] }, async (ctx: SystemCtx, pointId: number, status: FirmwareStatus) => {
  const newest = ctx.db
    .select({ id: firmwareRollouts.id })
    .from(firmwareRollouts)
    .where(owned(ctx, firmwareRollouts, eq(firmwareRollouts.pointId, pointId), eq(firmwareRollouts.delivery, "Sent")))
    .orderBy(desc(firmwareRollouts.issuedAt), desc(firmwareRollouts.id))
    .limit(1);
  const [moved] = await ctx.db
    .update(firmwareRollouts)
    .set({ status: status as RolloutStatus, updatedAt: new Date(ctx.now()) })
    .where(
      owned(
        ctx,
        firmwareRollouts,
        eq(firmwareRollouts.id, newest),
        status === "Idle" ? notInArray(firmwareRollouts.status, [...FINAL_ROLLOUT_STATUSES]) : undefined,
      ),
    )
    .returning({ firmwareId: firmwareRollouts.firmwareId });
  return moved?.firmwareId ?? null;
});
