import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { listPublishedLocations, roamsAsCpo as takesCpoRole, setStationPublished } from "../../../workers/services/ocpi/cpo-locations";
import { listPublishedTariffs } from "../../../workers/services/ocpi/cpo-tariffs";
import { admits } from "../../../workers/services/verb";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Loader and action of the screens of what we publish as a CPO (docs/rules/ocpi.md "CPO role"). */

export type PublishedList = "location" | "tariff";
export const listOfPath = (pathname: string): PublishedList => (pathname.toLowerCase().endsWith("tariff") ? "tariff" : "location");

type AnyPage = { records: Record<string, unknown>[]; total: number; current: number; size: number };
const EMPTY: AnyPage = { records: [], total: 0, current: 1, size: 10 };

export async function loadPublished({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const kind = listOfPath(new URL(request.url).pathname);
  // A notice when the operator does not roam as a CPO: nothing is offered to partners then.
  const roamsAsCpo = await takesCpoRole(ctx);
  const mayWithdraw = kind === "location" && admits(setStationPublished.access, ctx);
  try {
    const list = kind === "tariff" ? listPublishedTariffs : listPublishedLocations;
    return { kind, roamsAsCpo, mayWithdraw, page: (await list(ctx, searchParamsObject(request))) as AnyPage, filterError: null };
  } catch (error) {
    return { kind, roamsAsCpo, mayWithdraw, page: EMPTY, filterError: refusal(error, ctx.lang).body.msg };
  }
}

/** Withdraws a station from roaming (the station's page publishes it again). */
export async function withdrawAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    return { ok: true as const, record: await setStationPublished(ctx, bodyId(form.get("id")), { publish: false }) };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
