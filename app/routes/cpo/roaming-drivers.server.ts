import type { LoaderFunctionArgs } from "react-router";
import { listCpoCdrsForConsole, listCpoSessionsForConsole, listCpoTokensForConsole, roamingSettlement } from "../../../workers/services/ocpi/cpo/console";
import { admits } from "../../../workers/services/verb";
import { refusal, requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** Loader of the screens of partners' drivers at our chargers (docs/rules/ocpi.md "Partners' drivers at our chargers"). */

export type DriversList = "session" | "cdr" | "token";
export const driversListOf = (pathname: string): DriversList => {
  const path = pathname.toLowerCase();
  return path.endsWith("cdr") ? "cdr" : path.endsWith("token") ? "token" : "session";
};

type AnyPage = { records: Record<string, unknown>[]; total: number; current: number; size: number };
const EMPTY: AnyPage = { records: [], total: 0, current: 1, size: 10 };
const LISTS = { session: listCpoSessionsForConsole, cdr: listCpoCdrsForConsole, token: listCpoTokensForConsole } as const;

export async function loadRoamingDrivers({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const kind = driversListOf(new URL(request.url).pathname);
  const query = searchParamsObject(request);
  const { month, ...listQuery } = query;
  // The settlement rides on the CDR screen, for those who may read CDRs; without a month, the
  // verb takes the current one in the operator's zone.
  const asked = typeof month === "string" && month ? { month } : {};
  const settlement = kind === "cdr" && admits(roamingSettlement.access, ctx) ? await roamingSettlement(ctx, asked).catch(() => null) : null;
  try {
    return { kind, settlement, page: (await LISTS[kind](ctx, listQuery)) as AnyPage, filterError: null };
  } catch (error) {
    return { kind, settlement, page: EMPTY, filterError: refusal(error, ctx.lang).body.msg };
  }
}
