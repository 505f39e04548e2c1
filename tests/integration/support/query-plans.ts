import { env } from "cloudflare:test";
import { vi } from "vitest";

/**
 * How SQLite finds each table's rows in every statement prepared on D1 while `run` runs (the
 * Worker's requests and the verbs a test calls share the binding): one step per table per
 * statement, from `EXPLAIN QUERY PLAN`, beside what `run` answered. Without the planner's statistics, as D1 runs them, a plan
 * depends on the schema alone, so a test can hold a statement to its index (decision 0110).
 */
export async function plansOf<T>(run: () => Promise<T>): Promise<{ result: T; plans: { sql: string; step: string }[] }> {
  const prepare = vi.spyOn(env.DB, "prepare");
  let statements: string[];
  let result: T;
  try {
    result = await run();
  } finally {
    // Read before the spy goes: restoring it forgets its calls.
    statements = [...new Set(prepare.mock.calls.map(([sql]) => sql))];
    prepare.mockRestore();
  }
  const plans: { sql: string; step: string }[] = [];
  for (const sql of statements) {
    // A plan does not depend on the values: every parameter is bound as null.
    const parameters = sql.match(/\?/g)?.length ?? 0;
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...Array<null>(parameters).fill(null))
      .all<{ detail: string }>();
    for (const { detail } of results) if (/^(SCAN|SEARCH) /.test(detail)) plans.push({ sql, step: detail });
  }
  return { result, plans };
}

/**
 * The steps that reach a table's rows by the operator alone: a scan, or a search whose only
 * equality is the operator's id (a range beside it, such as `started_at<?`, still visits every
 * row of the operator before it). Not steps through a unique index of the operator (`…_operator_uq`:
 * its settings, one row), nor the statement's own values (a CTE of reported rows, constant rows).
 */
export const byOperatorAlone = (plans: { sql: string; step: string }[]) =>
  plans.filter(
    ({ step }) =>
      !/^SCAN (reported|\d+ CONSTANT ROWS|CONSTANT ROW)/.test(step) &&
      !/ INDEX \w+_operator_uq /.test(step) &&
      (/^SCAN /.test(step) || /\(operator_id=\?(?: AND \w+[<>]=?\?)*\)$/.test(step)),
  );
