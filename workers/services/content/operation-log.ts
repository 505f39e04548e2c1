import { count, desc, eq, gte, lte } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { operationLogs } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { operationLogQuery } from "../../../domain/schemas/content";
import { owned } from "../../../tenants/scope";
import { redactJson } from "../audit";
import { verb } from "../verb";

/**
 * The operation log made visible (docs/rules/content.md "Operation log"): the rows `auditRow`
 * writes with every change, listed newest first within the operator, and one row in full.
 */
const MENU = "carrier.operationLog";

type LogRow = typeof operationLogs.$inferSelect;

const summary = (r: Pick<LogRow, "id" | "module" | "tableName" | "operationType" | "account" | "email" | "url" | "ip" | "createdAt">) => ({
  id: r.id,
  module: r.module,
  tableName: r.tableName,
  operationType: r.operationType,
  account: r.account,
  email: r.email,
  url: r.url,
  ip: r.ip,
  createdAt: r.createdAt.toISOString(),
});

const listed = {
  id: operationLogs.id,
  module: operationLogs.module,
  tableName: operationLogs.tableName,
  operationType: operationLogs.operationType,
  account: operationLogs.account,
  email: operationLogs.email,
  url: operationLogs.url,
  ip: operationLogs.ip,
  createdAt: operationLogs.createdAt,
};

/** A page of the log, newest first, filtered by module, account, table, operation type and time. */
export const listOperationLogs = verb({ menu: MENU }, async (ctx, raw: unknown) => {
  const q = operationLogQuery.parse(raw);
  const where = owned(
    ctx,
    operationLogs,
    q.module ? eq(operationLogs.module, q.module) : undefined,
    containingIf(operationLogs.account, q.account),
    q.tableName ? eq(operationLogs.tableName, q.tableName) : undefined,
    q.operationType ? eq(operationLogs.operationType, q.operationType) : undefined,
    q.from ? gte(operationLogs.createdAt, new Date(q.from)) : undefined,
    q.to ? lte(operationLogs.createdAt, new Date(q.to)) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (await ctx.db.select(listed).from(operationLogs).where(where).orderBy(desc(operationLogs.createdAt), desc(operationLogs.id)).limit(limit).offset(offset)).map(
        summary,
      ),
    async () => (await ctx.db.select({ total: count() }).from(operationLogs).where(where))[0].total,
  );
});

/** The modules and tables the operator's log holds, for the filters' choices. */
export const operationLogFacets = verb({ menu: MENU }, async (ctx) => {
  const modules = await ctx.db.selectDistinct({ value: operationLogs.module }).from(operationLogs).where(owned(ctx, operationLogs)).orderBy(operationLogs.module).limit(200);
  const tables = await ctx.db.selectDistinct({ value: operationLogs.tableName }).from(operationLogs).where(owned(ctx, operationLogs)).orderBy(operationLogs.tableName).limit(200);
  return { modules: modules.map((m) => m.value), tables: tables.map((t) => t.value) };
});

/**
 * One row in full: old and new data, request body and response, as JSON values. Secrets were
 * replaced when the row was written; they are replaced again on the way out, so a row written
 * before a key joined the list stays safe too.
 */
export const getOperationLog = verb({ menu: MENU }, async (ctx, id: number) => {
  const [row] = await ctx.db.select().from(operationLogs).where(owned(ctx, operationLogs, eq(operationLogs.id, id))).limit(1);
  if (!row) throw new NotFound("content.errors.logNotFound");
  return {
    ...summary(row),
    operatorCode: row.operatorCode,
    oldData: redactJson(row.oldData),
    newData: redactJson(row.newData),
    requestBody: redactJson(row.requestBody),
    responseData: redactJson(row.responseData),
  };
});
