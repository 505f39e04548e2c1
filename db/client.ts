import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/**
 * What this isolate has asked of D1 since it started: statements prepared, and the batches some
 * of them went in. Round trips are `statements - batchedStatements + batches`. The OCPP bench
 * reads these figures to count D1 queries per boot and per transaction instead of guessing them
 * (docs/performance.md "How the figures are taken"); counting costs one addition per statement.
 */
export const d1Use = { statements: 0, batches: 0, batchedStatements: 0 };

/** The D1 binding with its statements counted in `d1Use`; everything else passes through untouched. */
function counted(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          d1Use.statements++;
          return target.prepare(query);
        };
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          d1Use.batches++;
          d1Use.batchedStatements += statements.length;
          return target.batch(statements);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function build(d1: D1Database) {
  return drizzle(counted(d1), { schema });
}

export type Db = ReturnType<typeof build>;

/**
 * One drizzle instance per D1 binding: drizzle derives its relational config from the whole
 * schema each time it is made, which cost a Heartbeat 40 % of its CPU when every message built
 * one (docs/performance.md "Where a message spent its time"). The instance holds no state of
 * its own between queries, so every caller may share it.
 */
const instances = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) instances.set(d1, (db = build(d1)));
  return db;
}
