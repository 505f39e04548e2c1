import { and, desc, gte, inArray, ne, sql } from "drizzle-orm";
import { rowsFor } from "../../../db/paging";
import { chargeRecords } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { pathId } from "../../../domain/schemas/numbers";
import { visible } from "../../../tenants/scope";
import { scopedStation, stationPoints } from "../monitoring/stations";
import { verb } from "../verb";

/** Points of one station a cashier page shows. */
const CASHIER_POINTS = 200;
/** A finished session stays on the cashier page this long after it started. */
const FINISHED_WINDOW_MS = 48 * 60 * 60 * 1000;

/**
 * /station/cashier/{id} (docs/rules/records.md "Cashier"): one station's connectors for an
 * attended site, with the running session of each and the amount due of the last finished one.
 * Any logged-in user of the station's operator may open it (docs/rules/console.md "Route
 * guard"); a sub-operator only its assigned stations. The console folds live states over it.
 */
export const stationCashier = verb({ menu: "session" }, async (ctx, rawId: unknown) => {
  const id = pathId.safeParse(String(rawId));
  if (!id.success) throw new NotFound("errors.stationNotFound");
  const station = await scopedStation(ctx, id.data);
  const { records: points, running } = await stationPoints(ctx, station.id, { current: 1, size: CASHIER_POINTS });
  const since = new Date(ctx.now() - FINISHED_WINDOW_MS);
  // The newest finished record of each connector (SQLite takes the bare columns from the row of max()).
  const finished = await rowsFor(
    points.map((p) => p.id),
    (slice) =>
      ctx.db
        .select({
          pointId: chargeRecords.pointId,
          connectorNo: chargeRecords.connectorNo,
          startAt: sql<number>`max(${chargeRecords.startAt})`,
          transactionId: chargeRecords.transactionId,
          status: chargeRecords.status,
          totalCost: chargeRecords.totalCost,
          paidCost: chargeRecords.paidCost,
          receiptToken: chargeRecords.receiptToken,
        })
        .from(chargeRecords)
        .where(visible(ctx, chargeRecords, chargeRecords.pointId, and(inArray(chargeRecords.pointId, slice), gte(chargeRecords.startAt, since), ne(chargeRecords.status, "CHARGING"))))
        .groupBy(chargeRecords.pointId, chargeRecords.connectorNo)
        .orderBy(desc(chargeRecords.pointId)),
  );
  const lastOf = new Map(finished.map((f) => [`${f.pointId}:${f.connectorNo}`, f]));
  const startOf = new Map(running.map((t) => [t.id, t.startAt.toISOString()]));
  return {
    station: { id: station.id, name: station.name, address: station.address },
    points: points.map((p) => ({
      id: p.id,
      serialNumber: p.serialNumber,
      name: p.name,
      online: p.online,
      connectors: p.connectors.map((c) => {
        const last = lastOf.get(`${p.id}:${c.connectorId}`);
        return {
          ...c,
          runningSince: c.transactionId ? (startOf.get(c.transactionId) ?? null) : null,
          lastSession: last
            ? {
                transactionId: last.transactionId,
                status: last.status,
                startAt: new Date(Number(last.startAt)).toISOString(),
                totalCost: last.totalCost,
                /** What is still to collect: the total less what was paid; null until priced. */
                amountDue: last.totalCost === null ? null : last.totalCost - (last.paidCost ?? 0),
                receiptToken: last.receiptToken,
              }
            : null,
        };
      }),
    })),
  };
});
