import { pointQuarantine } from "../../../domain/schemas/equipment";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { auditRow } from "../audit";
import { verb } from "../verb";
import { chargerObject } from "./charger-object";
import { findPoint } from "./points";

/**
 * `DELETE /station-service/point/{id}/quarantine` (docs/rules/ocpp.md "A charger that keeps
 * reconnecting"): an operator lets a quarantined charger connect again, and its connections are
 * counted afresh. The charger's object keeps the quarantine and clears its mirror in D1 (the
 * point's `quarantinedUntil`, the alarm) before it answers; the log row follows. Lifting a charger
 * that is not quarantined changes nothing and answers the point as it is. Operating, not watching:
 * the remote-control and point menus (docs/rules/access.md "Watching is not operating").
 */
export const liftQuarantine = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number) => {
  const { point } = await findPoint(ctx, { id: pointId });
  const was = pointQuarantine(point, ctx.now());
  const lifted = await chargerObject(ctx.env, point).liftQuarantine();
  if (lifted || was.quarantinedUntil !== null) {
    await auditRow(ctx, {
      table: "points",
      module: "ocpp",
      type: "UPDATE",
      oldData: { id: point.id, serialNumber: point.serialNumber, ...was },
      newData: { id: point.id, serialNumber: point.serialNumber, quarantinedUntil: null },
    });
  }
  const { point: after } = await findPoint(ctx, { id: pointId });
  return { pointId: after.id, serialNumber: after.serialNumber, lifted, ...pointQuarantine(after, ctx.now()) };
});
