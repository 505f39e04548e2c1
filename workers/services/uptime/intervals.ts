import { eq, is, isNull, lt, ne, notExists, sql, SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { connectors, points, statusIntervals } from "../../../db/schema";
import { statementTemplate } from "../../../db/statements";
import { owned } from "../../../tenants/scope";
import type { SystemCtx } from "../context";

/**
 * The status history as intervals (docs/rules/monitoring.md "Uptime"): statements the charger
 * change writer adds to its batch (docs/rules/ocpp.md "Hot path"), so history lands with the
 * connector row it explains and nothing is awaited on the charger's path. Each close is
 * conditional on an open interval that started earlier and each open on there being none, so a
 * batch applied twice (an eviction cut a flush short) writes nothing more.
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

/** A status's values, named as the placeholders of its statements. */
type StatusValues = {
  operatorId: number;
  pointId: number;
  connectorNo: number;
  status: string;
  at: Date;
  atMs: number;
};

const P = (name: keyof StatusValues) => sql.placeholder(name);

/**
 * The context the statements of a status are built in once: its operator is a placeholder, so
 * that `owned` scopes them as it scopes every other statement.
 */
const templateCtx = (db: SystemCtx["db"]) => ({ db, operator: { id: P("operatorId") } }) as unknown as SystemCtx;

const closeOnStatus = statementTemplate<StatusValues>((db) =>
  db
    .update(statusIntervals)
    .set({ endedAt: P("at") as never })
    .where(
      owned(
        templateCtx(db),
        statusIntervals,
        eq(statusIntervals.pointId, P("pointId")),
        eq(statusIntervals.connectorNo, P("connectorNo")),
        isNull(statusIntervals.endedAt),
        lt(statusIntervals.startedAt, P("atMs")),
        sql`not (${statusIntervals.status} is ${P("status")} and ${statusIntervals.online} = 1)`,
      ),
    ),
);

const openOnStatus = statementTemplate<StatusValues>((db) => {
  const ctx = templateCtx(db);
  return db
    .insert(statusIntervals)
    .select(
      db
        .select(intervalRow({ operatorId: sql`${points.operatorId}`, pointId: sql`${points.id}`, connectorNo: sql`${P("connectorNo")}`, status: sql`${P("status")}`, online: sql`1`, startedAt: sql`${P("atMs")}` }))
        .from(points)
        .where(owned(ctx, points, eq(points.id, P("pointId")), notExists(openOf(ctx, P("pointId") as never, sql`${P("connectorNo")}`)))) as never,
    )
    .onConflictDoNothing();
});

/**
 * A connector reported a status (connector 0: the point itself): the open interval ends unless it
 * already says this status online, and one opens with it. Reported means connected. Statements
 * for D1's own batch, built once (db/statements.ts `statementTemplate`): a burst of statuses
 * brings one pair per status.
 */
export function statusIntervalStatements(ctx: SystemCtx, pointId: number, connectorNo: number, status: string, at: Date): D1PreparedStatement[] {
  const values: StatusValues = { operatorId: ctx.operator.id, pointId, connectorNo, status, at, atMs: at.getTime() };
  return [closeOnStatus(ctx.db, values), openOnStatus(ctx.db, values)];
}

/**
 * The point's connection changed: every open interval of another connection state ends and its
 * connector goes on with the same status in this one; connectors with no history yet open theirs
 * from the status the connector row holds. Offline, all of them count as down.
 */
export function connectionIntervalStatements(ctx: SystemCtx, pointId: number, online: boolean, at: Date): BatchItem<"sqlite">[] {
  const changing = owned(ctx, statusIntervals, eq(statusIntervals.pointId, pointId), isNull(statusIntervals.endedAt), lt(statusIntervals.startedAt, at), ne(statusIntervals.online, online));
  return [
    ctx.db
      .insert(statusIntervals)
      .select(ctx.db.select(carriedOn(statusIntervals, online, at)).from(statusIntervals).where(changing) as never)
      .onConflictDoNothing(),
    ctx.db.update(statusIntervals).set({ endedAt: at }).where(changing),
    ctx.db
      .insert(statusIntervals)
      .select(
        ctx.db
          .select(carriedOn(connectors, online, at))
          .from(connectors)
          .where(owned(ctx, connectors, eq(connectors.pointId, pointId), notExists(openOf(ctx, pointId, sql`${connectors.connectorNo}`)))) as never,
      )
      .onConflictDoNothing(),
  ];
}

/** The interval a row's connector goes on with from `at` in this connection state, with the status the row holds. */
function carriedOn(row: typeof statusIntervals | typeof connectors, online: boolean, at: Date) {
  return intervalRow({
    operatorId: sql`${row.operatorId}`,
    pointId: sql`${row.pointId}`,
    connectorNo: sql`${row.connectorNo}`,
    status: sql`${row.status}`,
    online: sql`${online ? 1 : 0}`,
    startedAt: at,
  });
}
