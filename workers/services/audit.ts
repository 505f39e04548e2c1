import { operationLogs } from "../../db/schema";
import type { Db } from "../../db/client";
import { ownedRow } from "../../tenants/scope";
import type { Ctx, RequestMeta } from "./context";

type OperationType = (typeof operationLogs.$inferInsert)["operationType"];

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value, redact).slice(0, 8000));

/** Passwords, tokens and keys (a signature key, a secret access key) never reach the operation log. */
function redact(key: string, value: unknown) {
  return /password|token|captcha|secret|^key$/i.test(key) || /[a-z]Key$/.test(key) ? "***" : value;
}

/**
 * A stored log field read back as a JSON value with its secrets replaced again
 * (docs/rules/content.md "Operation log"); text cut at the length limit is answered as text.
 */
export function redactJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(JSON.stringify(JSON.parse(text), redact));
  } catch {
    return text;
  }
}

/** Who the log names: the account, or the system part that acted (`system: charger PL002-CP01`). */
function actorOf(ctx: Ctx): { account: string; email: string | null } {
  return ctx.actor.kind === "user"
    ? { account: ctx.actor.username, email: ctx.actor.email }
    : { account: `${ctx.actor.kind}: ${ctx.actor.name}`, email: null };
}

/**
 * The operation-log row of a mutation (docs/architecture.md "One door"), as a statement to put
 * in the same `db.batch` as the change itself, so a change is never left without its log row.
 * The system's own changes that an operator would want to see (a transaction marked ABNORMAL, a
 * charger disabled) are logged the same way, with the system as the actor.
 */
export function auditRow(
  ctx: Ctx,
  entry: { table: string; module: string; type: OperationType; oldData?: unknown; newData?: unknown; response?: unknown },
) {
  return ctx.db.insert(operationLogs).values(
    ownedRow(ctx, {
      operatorCode: ctx.operator.code,
      tableName: entry.table,
      module: entry.module,
      operationType: entry.type,
      ...actorOf(ctx),
      oldData: json(entry.oldData),
      newData: json(entry.newData),
      url: `${ctx.request.method} ${ctx.request.url}`.slice(0, 500),
      requestBody: json(ctx.request.body),
      responseData: json(entry.response),
      ip: ctx.request.ip,
    }),
  );
}

/** The LOGIN or LOGOUT row of a session, written before or after there is a tenant context. */
export function sessionAuditRow(
  db: Db,
  entry: {
    type: "LOGIN" | "LOGOUT";
    operator: { id: number; code: string };
    account: { username: string; email: string | null };
    request: RequestMeta;
  },
) {
  return db.insert(operationLogs).values(
    ownedRow(entry, {
      operatorCode: entry.operator.code,
      tableName: "sessions",
      module: "auth",
      operationType: entry.type,
      account: entry.account.username,
      email: entry.account.email,
      url: `${entry.request.method} ${entry.request.url}`.slice(0, 500),
      ip: entry.request.ip,
    }),
  );
}
