import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { Invalid, NotFound } from "../../../domain/errors";
import { isOperatorRemoteTag } from "../../../domain/remote-start-tag";
import { RECORD_ACTION_VERBS, RECORD_ACTIONS, recordActionsOf, type RecordAction } from "../../../workers/services/billing/record-actions";
import { stationCashier } from "../../../workers/services/charge-records/cashier";
import { chargeRecordDetail, listChargeRecords } from "../../../workers/services/charge-records/charge-records";
import { billByCode, receiptByToken, recordReceipt } from "../../../workers/services/charge-records/receipts";
import { remoteStartTag } from "../../../workers/services/charge-records/remote-start-tag";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { once } from "../../../workers/services/idempotency";
import { actionError, publicCtx, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Charge records, filtered and paged by the verb, with the station picker and the operator's remote-start tag. */
export async function loadRecords({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations, remoteTag] = await Promise.all([listChargeRecords(ctx, searchParamsObject(request)), stationOptions(ctx, {}), remoteStartTag(ctx)]);
  return { page, stations, remoteTag };
}

/** One record with its cost lines, curve and receipt, and the actions the actor may take on it now. */
export async function loadRecordDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [record, receipt, remoteTag] = await Promise.all([chargeRecordDetail(ctx, params.id), recordReceipt(ctx, params.id), remoteStartTag(ctx)]);
  return { record, receipt, actions: recordActionsOf(ctx, record), remoteStart: isOperatorRemoteTag(record.idTag, remoteTag) };
}

/**
 * A record action (docs/rules/billing.md "Record actions"), after the screen's confirmation; the
 * ones that debit run once per idempotency key (docs/rules/input.md "Idempotency keys").
 */
export async function recordAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const body = await actionJson<{ intent?: string }>(request);
    const { intent } = body;
    const run = RECORD_ACTIONS.includes(intent as RecordAction) ? RECORD_ACTION_VERBS[intent as RecordAction] : undefined;
    if (!run) throw new Invalid();
    const act = async () => {
      await run(ctx, params.id);
      return { ok: true as const, intent: intent as RecordAction };
    };
    return run.access.movesMoney ? (await once(ctx, request, body, act)).value : await act();
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/**
 * A public receipt or bill by its token or code, without login (docs/rules/records.md
 * "Receipts"): a wrong one answers 404 at the same address, with the not-found page.
 */
export async function loadPublicReceipt({ request, context, params }: LoaderFunctionArgs, kind: "receipt" | "bill") {
  const ctx = publicCtx(request, context);
  try {
    const receipt = kind === "bill" ? await billByCode(ctx, params.code) : await receiptByToken(ctx, params.id);
    return data({ receipt, lang: ctx.lang }, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    return data({ receipt: null, lang: ctx.lang }, { status: 404, headers: { "Cache-Control": "no-store" } });
  }
}

/** The cashier view of one station. */
export async function loadCashier({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { cashier: await stationCashier(ctx, params.id), now: ctx.now() };
}
