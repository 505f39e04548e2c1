import { eq } from "drizzle-orm";
import { diagnostics } from "../../../db/schema";
import { ChargerTimeout } from "../../../domain/errors";
import { checkRequest } from "../../../domain/ocpp";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { command, payloadInvalid, type PointRef } from "../remote/remote-control";
import { findPoint } from "./points";

/**
 * GetLog (1.6 security extension §4.4; 2.0.1 N01, whose message it is) sent as a generic command:
 * recorded as a diagnostics request before it goes out, as GetDiagnostics is, so that the
 * LogStatusNotifications that follow move it and no other (docs/rules/ocpp.md "Diagnostics",
 * "Security extension"). Either log type is an upload the diagnostics screen follows.
 */
export async function requestLog(ctx: UserCtx, ref: PointRef, raw: unknown) {
  const checked = checkRequest("GetLog", raw);
  if (!checked.ok) throw payloadInvalid(checked);
  const payload = checked.value;
  const { point } = await findPoint(ctx, ref);
  const now = new Date(ctx.now());
  const [created] = await ctx.db
    .insert(diagnostics)
    .values(ownedRow(ctx, { pointId: point.id, type: 1, location: payload.log.remoteLocation, status: 1, requestedAt: now, updatedAt: now }))
    .returning({ id: diagnostics.id });
  try {
    const reply = await command(ctx, { id: point.id }, "GetLog", payload);
    await ctx.db.batch([
      ctx.db
        .update(diagnostics)
        .set({ fileName: reply.filename ?? null })
        .where(owned(ctx, diagnostics, eq(diagnostics.id, created.id))),
      auditRow(ctx, { table: "diagnostics", module: "point", type: "CREATE", newData: { pointId: point.id, ...payload }, response: reply }),
    ]);
    return reply;
  } catch (error) {
    // As for GetDiagnostics: a charger that did not answer in time may have taken the request.
    if (!(error instanceof ChargerTimeout)) await ctx.db.delete(diagnostics).where(owned(ctx, diagnostics, eq(diagnostics.id, created.id)));
    throw error;
  }
}
