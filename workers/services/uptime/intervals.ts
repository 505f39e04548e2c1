import { eq, is, isNull, lt, ne, notExists, sql, SQL } from "drizzle-orm";
import { connectors, points, statusIntervals, throughPointHistory } from "../../../db/schema";
import { d1Statement } from "../../../db/statements";
import { type ReportedStatus, reportedStatusesStatement } from "../ocpp/reported-statuses";
import { owned } from "../../../tenants/scope";
import type { SystemCtx } from "../context";

/**
 * The status history as intervals (docs/rules/monitoring.md "Uptime"): statements the charger
 * change writer adds to its batch (docs/rules/ocpp.md "Hot path"), so history lands with the
 * connector row it explains and nothing is awaited on the charger's path. Each close is
 * conditional on an open interval that started earlier and each open on there being none, so a
 * batch applied twice (an eviction cut a flush short) writes nothing more.
 *
 * A statement that looks for a point's open intervals with `started_at < ?` names the point's
 * index: SQLite would take the operator's (`operator_id`, `started_at`) otherwise and visit every
 * interval the operator ever had, on each status of a storm (decision 0110).
 */

/** Every column of `status_intervals`, in its order, as drizzle's insert-select wants them. */
function intervalRow(values: { operatorId: SQL; pointId: SQL; connectorNo: SQL; status: SQL; online: SQL; startedAt: Date | SQL }) {
  return {
    id: sql`null`.as("id"),
    operatorId: values.operatorId.as("operator_id"),
    pointId: values.pointId.as("point_id"),
    connectorNo: values.connectorNo.as("connector_no"),
    status: values.status.as("status"),
    online: values.online.as("online"),
    startedAt: (is(values.startedAt, SQL) ? values.startedAt : sql`${values.startedAt.getTime()}`).as("started_at"),
    endedAt: sql`null`.as("ended_at"),
    excludedReason: sql`null`.as("excluded_reason"),
    excludedNote: sql`null`.as("excluded_note"),
    excludedBy: sql`null`.as("excluded_by"),
    excludedAt: sql`null`.as("excluded_at"),
  };
}

const openOf = (ctx: SystemCtx, pointId: number, connectorNo: SQL | number) =>
  ctx.db
    .select({ one: sql`1` })
    .from(statusIntervals)
    .where(owned(ctx, statusIntervals, eq(statusIntervals.pointId, pointId), sql`${statusIntervals.connectorNo} = ${connectorNo}`, isNull(statusIntervals.endedAt)));

/** The open interval of a reported status's connector (workers/services/ocpp/reported-statuses.ts). */
const openOfReported = () => [sql`${statusIntervals.pointId} = r_point`, sql`${statusIntervals.connectorNo} = r_connector`, isNull(statusIntervals.endedAt)];

/** Each open interval ends unless it already says its status online, or started then (a batch applied again). */
const closeOnStatus = reportedStatusesStatement(
  (ctx, reported) =>
    sql`${reported} update ${statusIntervals} ${throughPointHistory} set ${sql.identifier(statusIntervals.endedAt.name)} = r_at from reported where ${owned(
      ctx,
      statusIntervals,
      ...openOfReported(),
      sql`${statusIntervals.startedAt} < r_at`,
      sql`not (${statusIntervals.status} is r_status and ${statusIntervals.online} = 1)`,
    )}`,
);

/** The columns an interval opens with (the rest are empty until it ends or is excluded). */
const opened = sql.join(
  [statusIntervals.operatorId, statusIntervals.pointId, statusIntervals.connectorNo, statusIntervals.status, statusIntervals.online, statusIntervals.startedAt].map((c) =>
    sql.identifier(c.name),
  ),
  sql`, `,
);

/** One opens with the status, online, where its connector has none open any more. */
const openOnStatus = reportedStatusesStatement((ctx, reported) => {
  const noneOpen = notExists(ctx.db.select({ one: sql`1` }).from(statusIntervals).where(owned(ctx, statusIntervals, ...openOfReported())));
  return sql`${reported} insert into ${statusIntervals} (${opened}) select ${points.operatorId}, ${points.id}, r_connector, r_status, 1, r_at from reported join ${points} on ${points.id} = r_point where ${owned(ctx, points, noneOpen)} on conflict do nothing`;
});

/**
 * Connectors reported statuses (connector 0: the point itself): the open interval ends unless it
 * already says this status online, and one opens with it. Reported means connected. Statements
 * for D1's own batch, built once: a close and an open per 19 statuses, so a burst of many
 * chargers' statuses brings few of them (workers/services/ocpp/reported-statuses.ts). Each
 * connector at most once.
 */
export function statusIntervalStatements(ctx: SystemCtx, statuses: readonly ReportedStatus[]): D1PreparedStatement[] {
  return [...closeOnStatus(ctx, statuses), ...openOnStatus(ctx, statuses)];
}

/**
 * The point's connection changed: every open interval of another connection state ends and its
 * connector goes on with the same status in this one; connectors with no history yet open theirs
 * from the status the connector row holds. Offline, all of them count as down.
 */
export function connectionIntervalStatements(ctx: SystemCtx, pointId: number, online: boolean, at: Date): D1PreparedStatement[] {
  const changing = owned(ctx, statusIntervals, eq(statusIntervals.pointId, pointId), isNull(statusIntervals.endedAt), lt(statusIntervals.startedAt, at), ne(statusIntervals.online, online));
  const { operatorId, pointId: point, connectorNo, status, endedAt } = statusIntervals;
  return [
    sql`insert into ${statusIntervals} (${opened}) select ${operatorId}, ${point}, ${connectorNo}, ${status}, ${online ? 1 : 0}, ${at.getTime()} from ${statusIntervals} ${throughPointHistory} where ${changing} on conflict do nothing`,
    sql`update ${statusIntervals} ${throughPointHistory} set ${sql.identifier(endedAt.name)} = ${at.getTime()} where ${changing}`,
    ctx.db
      .insert(statusIntervals)
      .select(
        ctx.db
          .select(carriedOn(connectors, online, at))
          .from(connectors)
          .where(owned(ctx, connectors, eq(connectors.pointId, pointId), notExists(openOf(ctx, pointId, sql`${connectors.connectorNo}`)))) as never,
      )
      .onConflictDoNothing(),
  ].map((statement) => d1Statement(ctx.db.$client, statement));
}

/** The interval a row's connector goes on with from `at` in this connection state, with the status the row holds. */
function carriedOn(row: typeof connectors, online: boolean, at: Date) {
  return intervalRow({
    operatorId: sql`${row.operatorId}`,
    pointId: sql`${row.pointId}`,
    connectorNo: sql`${row.connectorNo}`,
    status: sql`${row.status}`,
    online: sql`${online ? 1 : 0}`,
    startedAt: at,
  });
}
