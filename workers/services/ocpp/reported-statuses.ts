import { sql, type SQL } from "drizzle-orm";
import { slices, statementTemplate } from "../../../db/statements";
import type { SystemCtx } from "../context";

/**
 * The statuses of a batch of chargers' changes written in few statements (docs/rules/ocpp.md "Hot
 * path"; docs/performance.md "Statuses in few statements"): a statement joins a table of up to
 * `STATUSES_PER_STATEMENT` reported statuses, so that a burst of a thousand chargers' statuses
 * brings a few dozen statements instead of three per status.
 */

/** A status a connector reported (connector 0: the point itself), at the charger's time of it. */
export interface ReportedStatus {
  pointId: number;
  connectorNo: number;
  status: string;
  errorCode: string;
  at: Date;
}

/** Five bound values a status, and the operator's id, within the 100 D1 binds per statement. */
export const STATUSES_PER_STATEMENT = 19;

/**
 * `reported(r_point, r_connector, r_status, r_error, r_at)`: `rows` statuses as a table, each value
 * a placeholder named after its row (`point0`, `connector0`, …); `r_at` in milliseconds.
 */
function reportedTable(rows: number) {
  const row = (i: number) =>
    sql`(${sql.join(
      ["point", "connector", "status", "error", "at"].map((name) => sql`${sql.placeholder(`${name}${i}`)}`),
      sql`, `,
    )})`;
  return sql`with reported(r_point, r_connector, r_status, r_error, r_at) as (values ${sql.join(
    Array.from({ length: rows }, (_, i) => row(i)),
    sql`, `,
  )})`;
}

/** The values of a slice of statuses, named as `reportedTable`'s placeholders. */
function reportedValues(ctx: SystemCtx, statuses: readonly ReportedStatus[]) {
  const values: Record<string, unknown> = { operatorId: ctx.operator.id };
  statuses.forEach((s, i) => {
    Object.assign(values, { [`point${i}`]: s.pointId, [`connector${i}`]: s.connectorNo, [`status${i}`]: s.status, [`error${i}`]: s.errorCode, [`at${i}`]: s.at.getTime() });
  });
  return values;
}

/**
 * A statement over reported statuses: `build` writes it after the `reported` table, in a context
 * whose operator is a placeholder, so that `owned` scopes it as every other statement. Drizzle
 * builds it once per number of statuses (db/statements.ts `statementTemplate`); each call binds
 * one statement per slice. A connector appears at most once in the statuses of one call: its
 * statuses in one statement would land in no order.
 */
export function reportedStatusesStatement(build: (ctx: SystemCtx, reported: SQL) => SQL) {
  const byCount = new Map<number, ReturnType<typeof statementTemplate<Record<string, unknown>>>>();
  return (ctx: SystemCtx, statuses: readonly ReportedStatus[]): D1PreparedStatement[] =>
    slices(statuses, STATUSES_PER_STATEMENT).map((slice) => {
      let template = byCount.get(slice.length);
      if (!template) {
        template = statementTemplate<Record<string, unknown>>((db) => build({ db, operator: { id: sql.placeholder("operatorId") } } as unknown as SystemCtx, reportedTable(slice.length)));
        byCount.set(slice.length, template);
      }
      return template(ctx.db, reportedValues(ctx, slice));
    });
}
