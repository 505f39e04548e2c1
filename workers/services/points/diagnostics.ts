import { count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { diagnostics, points } from "../../../db/schema";
import { ChargerTimeout } from "../../../domain/errors";
import type { OcppResponse } from "../../../domain/ocpp";
import { pageQuery } from "../../../domain/schemas/account-service";
import { DIAGNOSIS_STATUSES, diagnoseInput } from "../../../domain/schemas/equipment";
import { owned } from "../../../tenants/scoped";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { command } from "../remote/remote-control";
import { findPoint } from "./points";

/**
 * Remote diagnostics (SPEC.md §3 diagnosis, §4 upload status -1 failed, 1 waiting, 2 uploading,
 * 3 uploaded). A request gets its row, waiting, before GetDiagnostics goes out: the charger may
 * send its first DiagnosticsStatusNotification before its answer, and that notification must find
 * the request. The charger's notifications then move the point's newest request while it is in
 * progress (workers/services/ocpp/charger-records.ts).
 */

type DiagnosisRow = typeof diagnostics.$inferSelect;

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

export async function requestDiagnostics(ctx: Ctx, pointId: number, raw: unknown) {
  const input = diagnoseInput.parse(raw);
  const { point } = await findPoint(ctx, { id: pointId });
  const now = new Date(ctx.now());
  const [created] = await ctx.db
    .insert(diagnostics)
    .values({ operatorId: ctx.operator.id, pointId, type: input.type, location: input.location, status: 1, requestedAt: now, updatedAt: now })
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
    if (!(error instanceof ChargerTimeout)) await ctx.db.delete(diagnostics).where(eq(diagnostics.id, created.id));
    throw error;
  }
  const [[updated]] = await ctx.db.batch([
    ctx.db.update(diagnostics).set({ fileName: reply.fileName ?? null }).where(eq(diagnostics.id, created.id)).returning(),
    auditRow(ctx, { table: "diagnostics", module: "point", type: "CREATE", newData: { pointId, ...input }, response: reply }),
  ]);
  return present(updated, point.serialNumber);
}

export const diagnosisListQuery = pageQuery.extend({
  pointId: z.coerce.number({ error: "points.validation.pointId" }).int().positive({ error: "points.validation.pointId" }).optional(),
  status: z.coerce
    .number({ error: "points.validation.diagnosisStatus" })
    .refine((s) => (DIAGNOSIS_STATUSES as readonly number[]).includes(s), { error: "points.validation.diagnosisStatus" })
    .optional(),
});

/** GET /station-service/diagnosis: newest first, for one point or all of the operator's. */
export async function listDiagnostics(ctx: Ctx, raw: unknown) {
  const q = diagnosisListQuery.parse(raw);
  if (q.pointId) await findPoint(ctx, { id: q.pointId });
  const where = owned(
    ctx,
    diagnostics,
    q.pointId ? eq(diagnostics.pointId, q.pointId) : undefined,
    q.status !== undefined ? eq(diagnostics.status, q.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ diagnosis: diagnostics, serialNumber: points.serialNumber })
      .from(diagnostics)
      .leftJoin(points, eq(points.id, diagnostics.pointId))
      .where(where)
      .orderBy(desc(diagnostics.requestedAt), desc(diagnostics.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(diagnostics).where(where),
  ]);
  return { records: rows.map((r) => present(r.diagnosis, r.serialNumber)), total, current: q.current, size: q.size };
}
