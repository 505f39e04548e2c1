import { count, desc, eq } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { diagnostics, points } from "../../../db/schema";
import { ChargerTimeout } from "../../../domain/errors";
import type { OcppResponse } from "../../../domain/ocpp";
import { diagnoseInput, diagnosisListQuery } from "../../../domain/schemas/equipment";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { deviceChoices } from "../stations/choices";
import { verb } from "../verb";
import { command, type PointRef } from "../remote/remote-control";
import type { UserCtx } from "../context";
import { findPoint, POINT_READ_MENUS } from "./points";

/**
 * Remote diagnostics (docs/rules/ocpp.md "Diagnostics"; upload status -1 failed, 1 waiting,
 * 2 uploading, 3 uploaded). A request gets its row, waiting, before GetDiagnostics goes out: the
 * charger may send its first DiagnosticsStatusNotification before its answer, and that
 * notification must find the request. The charger's notifications then move the point's newest
 * request while it is in progress (workers/services/ocpp/point-events.ts).
 */

type DiagnosisRow = typeof diagnostics.$inferSelect;

/** The diagnostics screen lists every point's requests and asks for new ones (a screen that owns its command). */
const DIAGNOSIS_MENU = "operation.diagnosis";
const DIAGNOSIS_COMMAND_MENUS = [...REMOTE_CONTROL_MENUS, DIAGNOSIS_MENU];

const present = (d: DiagnosisRow, serialNumber: string | null) => ({
  id: d.id,
  pointId: d.pointId,
  serialNumber,
  type: d.type,
  location: d.location,
  fileName: d.fileName,
  status: d.status,
  requestedAt: d.requestedAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

/**
 * Every GetDiagnostics goes out this way, whichever tool asks (the diagnostics screen, the point
 * page, the monitoring tools, a generic command): its row first, then the call, so that no
 * notification moves another request's row (docs/rules/ocpp.md "Diagnostics"). The verb that
 * calls it has already checked its own permission; answers the request and the charger's reply.
 */
export async function diagnose(ctx: UserCtx, ref: PointRef, raw: unknown) {
  const input = diagnoseInput.parse(raw);
  const { point } = await findPoint(ctx, ref);
  const pointId = point.id;
  const now = new Date(ctx.now());
  const [created] = await ctx.db
    .insert(diagnostics)
    .values(ownedRow(ctx, { pointId, type: input.type, location: input.location, status: 1, requestedAt: now, updatedAt: now }))
    .returning({ id: diagnostics.id });
  let reply: OcppResponse<"GetDiagnostics">;
  try {
    reply = await command(ctx, { id: pointId }, "GetDiagnostics", {
      location: input.location,
      ...(input.retries !== undefined && { retries: input.retries }),
      ...(input.retryInterval !== undefined && { retryInterval: input.retryInterval }),
      ...(input.startTime && { startTime: input.startTime }),
      ...(input.stopTime && { stopTime: input.stopTime }),
    });
  } catch (error) {
    // Offline or refused, the charger never took the request; one that did not answer in time may
    // have, so its row stays for the notifications to come.
    if (!(error instanceof ChargerTimeout)) await ctx.db.delete(diagnostics).where(owned(ctx, diagnostics, eq(diagnostics.id, created.id)));
    throw error;
  }
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(diagnostics)
      .set({ fileName: reply.fileName ?? null })
      .where(owned(ctx, diagnostics, eq(diagnostics.id, created.id)))
      .returning(),
    auditRow(ctx, { table: "diagnostics", module: "point", type: "CREATE", newData: { pointId, ...input }, response: reply }),
  ]);
  return { request: present(updated, point.serialNumber), reply };
}

export const requestDiagnostics = verb(
  { menu: DIAGNOSIS_COMMAND_MENUS, mutates: true },
  async (ctx, pointId: number, raw: unknown) => (await diagnose(ctx, { id: pointId }, raw)).request,
);

/**
 * GetDiagnostics from the monitoring tools, by serial number (a generic remote command, so the
 * remote-control menus): the request is recorded like any other; answers the charger's reply.
 */
export const remoteDiagnostics = verb(
  { menu: REMOTE_CONTROL_MENUS, mutates: true },
  async (ctx, ref: PointRef, raw: unknown) => (await diagnose(ctx, ref, raw)).reply,
);

/** Locations and, for one of them, its points: what the diagnostics screen's request form picks from. */
export const diagnosisChoices = verb({ menu: [DIAGNOSIS_MENU] }, deviceChoices);

/** GET /station-service/diagnosis: newest first, for one point or all of the operator's. */
export const listDiagnostics = verb({ menu: [...POINT_READ_MENUS, DIAGNOSIS_MENU] }, async (ctx, raw: unknown) => {
  const q = diagnosisListQuery.parse(raw);
  if (q.pointId) await findPoint(ctx, { id: q.pointId });
  const where = owned(
    ctx,
    diagnostics,
    q.pointId ? eq(diagnostics.pointId, q.pointId) : undefined,
    q.status !== undefined ? eq(diagnostics.status, q.status) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ diagnosis: diagnostics, serialNumber: points.serialNumber })
          .from(diagnostics)
          .leftJoin(points, eq(points.id, diagnostics.pointId))
          .where(where)
          .orderBy(desc(diagnostics.requestedAt), desc(diagnostics.id))
          .limit(limit)
          .offset(offset)
      ).map((r) => present(r.diagnosis, r.serialNumber)),
    async () => (await ctx.db.select({ total: count() }).from(diagnostics).where(where))[0].total,
  );
});
