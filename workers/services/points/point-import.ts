import { inArray, sql } from "drizzle-orm";
import { connectors, points, stations } from "../../../db/schema";
import { Conflict, Invalid } from "../../../domain/errors";
import {
  connectorStandard,
  defaultConnector,
  pointImportInput,
  pointImportRow,
  pointType,
  quotaKind,
  standardFits,
  type PointImportRow,
} from "../../../domain/schemas/equipment";
import { owned, visibleStations } from "../../../tenants/scope";
import { serialNumbersTaken } from "../platform/serial-numbers";
import { auditRow } from "../audit";
import { importRow } from "../import-rows";
import { creatingMaintainer, ownDeviceRows } from "../maintenance/maintainers";
import { verb } from "../verb";
import { connectorList, guardedPointInsert } from "./point-admin";
import { assertQuota, quotaExceeded, quotaOf } from "./quota";
import { batchOf, d1Statement, IN_LIST, slices } from "../../../db/statements";

/**
 * Import points from the rows of an Excel sheet (docs/rules/equipment.md "Import and export"). The
 * browser reads the workbook and sends its rows; every row is checked, and when any row is bad the
 * answer lists each bad cell as `"<line>.<field>"` with its message and nothing is imported. A good
 * file creates all its points with their connectors, disabled, within the authorised connector
 * counts.
 */
export const importPoints = verb({ menu: "equipment.point", mutates: true }, async (ctx, raw: unknown) => {
  const { rows } = pointImportInput.parse(raw);
  const fields: Record<string, string> = {};
  const good: { line: number; row: PointImportRow }[] = [];
  // What each row names, read loosely, so a row with a bad type still has its location and serial number checked.
  const named: { line: number; stationName?: string; serialNumber?: string }[] = [];

  rows.forEach((value, index) => {
    const { cells, line, row } = importRow(pointImportRow, value, index, fields);
    const station = pointImportRow.shape.stationName.safeParse(cells.stationName);
    const serial = pointImportRow.shape.serialNumber.safeParse(cells.serialNumber);
    named.push({ line, stationName: station.success ? station.data : undefined, serialNumber: serial.success ? serial.data : undefined });
    const type = pointType.safeParse(cells.type);
    const standard = connectorStandard.safeParse(cells.standard);
    if (type.success && standard.success && !standardFits(type.data, standard.data)) fields[`${line}.standard`] = "points.validation.standardForType";
    if (row) good.push({ line, row });
  });

  // Maintenance staff whose role holds this screen import into stations they see, and answer for what they import (docs/rules/maintenance.md "Maintainers").
  const maintainerId = await creatingMaintainer(ctx);
  const names = [...new Set(named.flatMap((n) => (n.stationName ? [n.stationName] : [])))];
  const known = await Promise.all(
    slices(names, IN_LIST).map((slice) =>
      ctx.db
        .select({ id: stations.id, name: stations.name })
        .from(stations)
        .where(maintainerId === null ? owned(ctx, stations, inArray(stations.name, slice)) : visibleStations(ctx, inArray(stations.name, slice))),
    ),
  );
  const stationIds = new Map(known.flat().map((s) => [s.name, s.id]));
  const registered = await serialNumbersTaken(ctx, named.flatMap((n) => (n.serialNumber ? [n.serialNumber] : [])));
  const seen = new Set<string>();
  for (const { line, stationName, serialNumber: serial } of named) {
    if (stationName && !stationIds.has(stationName)) fields[`${line}.stationName`] = "points.validation.stationUnknown";
    if (!serial) continue;
    if (registered.has(serial)) fields[`${line}.serialNumber`] = "validation.serialTaken";
    else if (seen.has(serial)) fields[`${line}.serialNumber`] = "points.validation.serialTwice";
    seen.add(serial);
  }
  const badLines = new Set(Object.keys(fields).map((key) => key.split(".")[0]));
  if (badLines.size) throw new Invalid("points.errors.importRejected", { count: badLines.size }, fields);

  const adding = { AC: 0, DC: 0 };
  for (const { row } of good) adding[quotaKind(row.type)] += row.connectorCount;
  await assertQuota(ctx, adding);

  const inputs = good.map(({ row }) => ({
    stationId: stationIds.get(row.stationName)!,
    name: row.name,
    serialNumber: row.serialNumber,
    pointNo: row.pointNo,
    code: row.code,
    type: row.type,
    ratedPower: row.ratedPower,
    connectorCount: row.connectorCount,
    privateType: row.privateType,
    stationType: undefined,
  }));
  // Each insert claims its connectors in the same statement; in one batch each sees the ones before it.
  const d1 = ctx.env.DB;
  const claimed = await d1.batch<{ id: number }>(inputs.map((input) => d1Statement(d1, guardedPointInsert(ctx, input))));
  const ids = claimed.flatMap((result) => result.results.map((r) => r.id));
  const undo = () =>
    batchOf(ctx.db, [
      ...slices(ids, IN_LIST).map((slice) => ctx.db.delete(connectors).where(owned(ctx, connectors, inArray(connectors.pointId, slice)))),
      ...slices(ids, IN_LIST).map((slice) => ctx.db.delete(points).where(owned(ctx, points, inArray(points.id, slice)))),
    ]);
  if (ids.length !== inputs.length) {
    // A concurrent request took serial numbers or connectors meanwhile: all or nothing.
    if (ids.length) await undo();
    const quota = await quotaOf(ctx);
    const over = (["AC", "DC"] as const).find((kind) => adding[kind] > 0 && quota[kind].used + adding[kind] > quota[kind].authorized);
    if (over) throw quotaExceeded(over, adding[over], quota[over].used, quota[over].authorized);
    throw new Conflict("points.errors.importRaced");
  }
  try {
    await d1.batch([
      ...inputs.map((input, index) => {
        const fallback = defaultConnector(input.type);
        const [{ power }] = connectorList({ ...input, connectors: undefined });
        // One statement per point however many connectors it has: numbers 1..count from a recursive CTE.
        return d1Statement(d1, sql`
          INSERT INTO connectors (operator_id, point_id, connector_no, standard, power_w, charge_speed, created_at)
          WITH RECURSIVE numbers(no) AS (SELECT 1 UNION ALL SELECT no + 1 FROM numbers WHERE no < ${input.connectorCount})
          SELECT ${ctx.operator.id}, ${ids[index]}, no, ${good[index].row.standard ?? fallback.standard}, ${Math.round(power * 1000)},
            ${good[index].row.chargeSpeed ?? fallback.chargeSpeed}, ${ctx.now()}
          FROM numbers`);
      }),
      ...(await ownDeviceRows(ctx, maintainerId, inputs.map((input, i) => ({ point: { id: ids[i], stationId: input.stationId } })))).map((statement) => d1Statement(d1, statement)),
      d1Statement(d1, auditRow(ctx, { table: "points", module: "point", type: "CREATE", newData: { imported: inputs.map((input, i) => ({ id: ids[i], ...input })) } })),
    ]);
  } catch (error) {
    await undo();
    throw error;
  }
  return { imported: ids.length, ids };
});
