import { asc, count, eq, inArray, or } from "drizzle-orm";
import { rowsFor } from "../../../db/paging";
import { containing } from "../../../db/like";
import { faultCodes } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import {
  DEFAULT_FAULT_COUNT,
  faultCodeInput,
  faultCodeListQuery,
  faultCodeUpdate,
  isOcppFaultCode,
  OCPP_ERROR_LEVEL,
  OCPP_FAULT_CODES,
} from "../../../domain/schemas/operations";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { verb } from "../verb";

/**
 * The fault-code catalogue (docs/rules/operations.md "Fault codes"): OCPP's 14 codes, always
 * there with defaults an operator may override, and the vendor codes an operator adds. Each code
 * has a name, a level and a count: how many occurrences in a period make a failure repeated.
 * Why OCPP's codes are not rows until changed: docs/decisions/0030-fault-codes-and-failures.md.
 */
export const FAULT_CODE_MENUS = ["operation.faultCode"];
/** Screens that read the catalogue to name and weigh failures. */
export const FAULT_CODE_READ_MENUS = [...FAULT_CODE_MENUS, "operation.operationFailure", "operation.historicalAlarmInfo"];

type Row = typeof faultCodes.$inferSelect;

export interface FaultCode {
  code: string;
  source: "OCPP" | "VENDOR";
  name: string;
  level: "ERROR" | "WARN";
  count: number;
  description: string | null;
  /** False for an OCPP code still at its defaults. */
  customised: boolean;
  updatedAt: string | null;
}

const ocppDefault = (code: string): FaultCode => ({
  code,
  source: "OCPP",
  name: code,
  level: OCPP_ERROR_LEVEL.has(code) ? "ERROR" : "WARN",
  count: DEFAULT_FAULT_COUNT,
  description: null,
  customised: false,
  updatedAt: null,
});

const present = (row: Row): FaultCode => ({
  code: row.code,
  source: row.source,
  name: row.name,
  level: row.level,
  count: row.count,
  description: row.description,
  customised: true,
  updatedAt: row.updatedAt.toISOString(),
});

const matches = (keyword: string | undefined) => (f: FaultCode) => !keyword || `${f.code} ${f.name}`.toLowerCase().includes(keyword.toLowerCase());

/** The catalogue entries of these codes (OCPP's at their defaults unless overridden), for failures. */
export async function faultCodesOf(ctx: Ctx, codes: string[]): Promise<Map<string, FaultCode>> {
  const unique = [...new Set(codes)];
  const rows = await rowsFor(unique, (slice) => ctx.db.select().from(faultCodes).where(owned(ctx, faultCodes, inArray(faultCodes.code, slice))));
  const out = new Map<string, FaultCode>();
  for (const code of unique) if (isOcppFaultCode(code)) out.set(code, ocppDefault(code));
  for (const row of rows) out.set(row.code, present(row));
  return out;
}

/**
 * OCPP's codes first, in the catalogue's order, then vendor codes by code. The 14 OCPP entries are
 * merged in memory with the operator's overrides; vendor codes are paged in SQL after them.
 */
export const listFaultCodes = verb({ menu: FAULT_CODE_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = faultCodeListQuery.parse(raw);
  const offset = (q.current - 1) * q.size;
  let ocpp: FaultCode[] = [];
  if (q.source !== "VENDOR") {
    const overrides = await faultCodesOf(ctx, [...OCPP_FAULT_CODES]);
    ocpp = OCPP_FAULT_CODES.map((code) => overrides.get(code)!).filter(matches(q.keyword));
  }
  const vendorWhere = owned(
    ctx,
    faultCodes,
    eq(faultCodes.source, "VENDOR"),
    q.keyword ? or(containing(faultCodes.code, q.keyword), containing(faultCodes.name, q.keyword)) : undefined,
  );
  const ocppPage = ocpp.slice(offset, offset + q.size);
  const vendorOffset = Math.max(0, offset - ocpp.length);
  const vendorLimit = q.size - ocppPage.length;
  const [vendor, [{ total }]] =
    q.source === "OCPP"
      ? [[], [{ total: 0 }]]
      : await Promise.all([
          vendorLimit > 0
            ? ctx.db.select().from(faultCodes).where(vendorWhere).orderBy(asc(faultCodes.code)).limit(vendorLimit).offset(vendorOffset)
            : Promise.resolve([] as Row[]),
          ctx.db.select({ total: count() }).from(faultCodes).where(vendorWhere),
        ]);
  return { records: [...ocppPage, ...vendor.map(present)], total: ocpp.length + total, current: q.current, size: q.size };
});

async function findVendorCode(ctx: Ctx, code: string) {
  const [row] = await ctx.db.select().from(faultCodes).where(owned(ctx, faultCodes, eq(faultCodes.code, code))).limit(1);
  return row;
}

export const faultCodeDetail = verb({ menu: FAULT_CODE_READ_MENUS }, async (ctx, code: string) => {
  const found = (await faultCodesOf(ctx, [code])).get(code);
  if (!found) throw new NotFound("operations.errors.faultCodeNotFound");
  return found;
});

/** A vendor code; OCPP's codes exist already and are edited instead (409), a code is unique (409). */
export const createFaultCode = verb({ menu: FAULT_CODE_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  const input = faultCodeInput.parse(raw);
  if (isOcppFaultCode(input.code) || (await findVendorCode(ctx, input.code))) throw new Conflict("operations.errors.faultCodeExists", { code: input.code });
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(faultCodes)
      .values(ownedRow(ctx, { ...input, description: input.description || null, source: "VENDOR" as const }))
      .returning(),
    auditRow(ctx, { table: "fault_codes", module: "faultCode", type: "CREATE", newData: input }),
  ]);
  return present(created);
});

/** Edits a vendor code, or overrides an OCPP code's name, level, count and description. */
export const updateFaultCode = verb({ menu: FAULT_CODE_MENUS, mutates: true }, async (ctx, code: string, raw: unknown) => {
  const input = faultCodeUpdate.parse(raw);
  const before = await findVendorCode(ctx, code);
  if (!before && !isOcppFaultCode(code)) throw new NotFound("operations.errors.faultCodeNotFound");
  const values = { ...input, description: input.description || null, updatedAt: new Date(ctx.now()) };
  const [[saved]] = await ctx.db.batch([
    before
      ? ctx.db.update(faultCodes).set(values).where(owned(ctx, faultCodes, eq(faultCodes.code, code))).returning()
      : ctx.db.insert(faultCodes).values(ownedRow(ctx, { ...values, code, source: "OCPP" as const })).returning(),
    auditRow(ctx, { table: "fault_codes", module: "faultCode", type: before ? "UPDATE" : "CREATE", oldData: before, newData: { code, ...input } }),
  ]);
  return present(saved);
});

/** Deletes a vendor code; an OCPP code cannot be deleted, only brought back to its defaults. */
export const deleteFaultCode = verb({ menu: FAULT_CODE_MENUS, mutates: true }, async (ctx, code: string) => {
  const before = await findVendorCode(ctx, code);
  if (!before) {
    if (isOcppFaultCode(code)) return ocppDefault(code);
    throw new NotFound("operations.errors.faultCodeNotFound");
  }
  await ctx.db.batch([
    ctx.db.delete(faultCodes).where(owned(ctx, faultCodes, eq(faultCodes.code, code))),
    auditRow(ctx, { table: "fault_codes", module: "faultCode", type: "DELETE", oldData: before }),
  ]);
  return isOcppFaultCode(code) ? ocppDefault(code) : { ...present(before), deleted: true };
});
