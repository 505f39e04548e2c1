import { Miniflare } from "miniflare";

/**
 * A local D1 database opened from Node (`npm start`'s migrations and seed, the integration
 * project's starting database, the chaos harness and the benches: docs/testing.md "Where the
 * time goes", its paragraph "D1 from Node without the synchronous proxy").
 *
 * Wrangler's platform proxy would give a D1 binding too, but through Miniflare's proxy every
 * `prepare` and `bind` is a synchronous round trip, made by blocking Node on a worker thread
 * (Miniflare's `SynchronousFetcher`), and on a loaded machine one such call came back without
 * its answer: `npm start` died in the seed with "AssertionError: false == true" at
 * `fetch-sync.ts:147`. Here a statement is prepared and bound in Node, and only sent when it runs:
 * one ordinary request to a worker that runs it on its own binding, awaited like any fetch.
 *
 * Values cross as JSON: numbers, strings, booleans and null, which is all the schema holds (it has
 * no blob columns). What it offers is what this repository's Node code asks of D1: `prepare`,
 * `bind`, `run`, `all`, `first`, `raw` and `batch`.
 */

/** What the worker is asked to run: one statement, or several as one batch (one transaction). */
type Statement = { sql: string; params: unknown[] };
type D1Call = { run: "all" | "run" | "raw" | "first"; statement: Statement; column?: string } | { run: "batch"; statements: Statement[] };

/** The worker inside the runtime: it runs what it is sent on its `DB` binding and answers the result, or the error's message. */
const WORKER = /* javascript */ `
export default {
  async fetch(request, env) {
    const asked = await request.json();
    const prepare = ({ sql, params }) => env.DB.prepare(sql).bind(...params);
    try {
      if (asked.run === "batch") return Response.json(await env.DB.batch(asked.statements.map(prepare)));
      const statement = prepare(asked.statement);
      const result = asked.run === "first" ? await statement.first(asked.column) : await statement[asked.run]();
      return Response.json(result ?? null);
    } catch (error) {
      return Response.json({ error: String(error?.message ?? error) }, { status: 500 });
    }
  },
};
`;

class LocalStatement {
  constructor(
    private readonly send: (call: D1Call) => Promise<unknown>,
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}

  /** A new statement with these values, as D1's `bind` returns. */
  bind(...params: unknown[]) {
    return new LocalStatement(this.send, this.sql, params);
  }

  all() {
    return this.send({ run: "all", statement: this });
  }

  run() {
    return this.send({ run: "run", statement: this });
  }

  raw() {
    return this.send({ run: "raw", statement: this });
  }

  first(column?: string) {
    return this.send({ run: "first", statement: this, column });
  }

  toJSON(): Statement {
    return { sql: this.sql, params: this.params };
  }
}

/**
 * Opens the D1 database `databaseId` kept under `persist` (a state folder's `v3/d1`, where
 * `wrangler dev` keeps it), or an empty one in memory when `persist` is false, in a runtime of
 * `wrangler.toml`'s compatibility date; `dispose` stops the runtime.
 */
export async function openLocalD1({ databaseId, compatibilityDate, persist }: { databaseId: string; compatibilityDate: string; persist: string | false }) {
  const runtime = new Miniflare({
    modules: true,
    script: WORKER,
    compatibilityDate,
    d1Databases: { DB: databaseId },
    d1Persist: persist === false ? undefined : persist,
  });
  const url = await runtime.ready;
  const send = async (call: D1Call) => {
    const response = await runtime.dispatchFetch(url, { method: "POST", body: JSON.stringify(call) });
    const answer = (await response.json()) as { error?: string } | null;
    if (!response.ok) throw new Error(answer?.error ?? `D1 answered ${response.status}`);
    return answer;
  };
  const d1 = {
    prepare: (sql: string) => new LocalStatement(send, sql),
    batch: (statements: LocalStatement[]) => send({ run: "batch", statements: statements.map((s) => s.toJSON()) }),
  };
  // The part of D1Database this repository's Node code uses (above); the rest is not offered.
  return { d1: d1 as unknown as D1Database, dispose: () => runtime.dispose() };
}
