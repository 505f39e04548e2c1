import type { SystemCtx } from "../context";
import { desc, eq, inArray } from "drizzle-orm";
import { diagnostics, pointEvents, points } from "../../../db/schema";
import { DIAGNOSIS_STATUS_OF } from "../../../domain/schemas/equipment";
import { owned, ownedRow } from "../../../tenants/scope";
import { verb } from "../verb";
import { system } from "./charger-scope";

/**
 * What a charger reports of itself beside its sessions (firmware, diagnostics, data transfers,
 * security and other events), kept as point events and as the point's latest status.
 */

/** The charger's own point, within its operator (kept local: the tenancy check reads each module's own filters). */
const ofPoint = (ctx: SystemCtx, pointId: number) => owned(ctx, points, eq(points.id, pointId));

/** Diagnostics upload statuses a notification may still move: 1 waiting, 2 uploading. */
const UPLOAD_IN_PROGRESS = [1, 2];

export const recordPointEvent = verb(
  system,
  async (ctx, pointId: number, kind: "FirmwareStatus" | "DiagnosticsStatus" | "DataTransfer" | "Event", status: string | null, detail: Record<string, unknown>) => {
    const event = ctx.db.insert(pointEvents).values(ownedRow(ctx, { pointId, kind, status, detail }));
    if (kind === "DataTransfer" || kind === "Event") return void (await event);
    const latest = kind === "FirmwareStatus" ? { firmwareStatus: status } : { diagnosticsStatus: status };
    const upload = kind === "DiagnosticsStatus" && status ? DIAGNOSIS_STATUS_OF[status] : undefined;
    const point = ctx.db.update(points).set(latest).where(ofPoint(ctx, pointId));
    if (upload === undefined) return void (await ctx.db.batch([event, point]));
    // The charger works on the request it got last: a notification moves the point's newest request
    // while that one is in progress, and never an older request's row (docs/rules/equipment.md).
    const newestRequest = ctx.db
      .select({ id: diagnostics.id })
      .from(diagnostics)
      .where(owned(ctx, diagnostics, eq(diagnostics.pointId, pointId)))
      .orderBy(desc(diagnostics.id))
      .limit(1);
    await ctx.db.batch([
      event,
      point,
      ctx.db
        .update(diagnostics)
        .set({ status: upload, updatedAt: new Date(ctx.now()) })
        .where(owned(ctx, diagnostics, eq(diagnostics.id, newestRequest), inArray(diagnostics.status, UPLOAD_IN_PROGRESS))),
    ]);
  },
);
