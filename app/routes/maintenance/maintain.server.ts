import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { createMaintainer, deleteMaintainer, getMaintainer, listMaintainers, maintainerChoices, updateMaintainer } from "../../../workers/services/maintenance/maintainers";
import * as workOrders from "../../../workers/services/maintenance/work-orders";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/**
 * Operation and maintenance › Work orders and maintainers (docs/rules/maintenance.md): the
 * screens reach the same verbs as the API.
 */
export async function loadMaintain({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const query = searchParamsObject(request);
  const tab = query.tab === "maintainers" ? ("maintainers" as const) : ("orders" as const);
  const maintainer = ctx.actor.role?.type === "MAINTAINER";
  const empty = { records: [], total: 0, current: 1, size: 10 };
  try {
    if (tab === "maintainers") {
      return { tab, maintainer, orders: null, maintainers: await listMaintainers(ctx, query), settings: null, handlers: [], filterError: null };
    }
    const [orders, settings, handlers] = await Promise.all([workOrders.listWorkOrders(ctx, query), workOrders.getMaintenanceSettings(ctx), maintainer ? Promise.resolve(null) : listMaintainers(ctx, { size: 100 })]);
    return { tab, maintainer, orders, maintainers: null, settings, handlers: handlers?.records.map((m) => ({ id: m.id, name: m.name, username: m.username })) ?? [], filterError: null };
  } catch (error) {
    return { tab, maintainer, orders: empty as Awaited<ReturnType<typeof workOrders.listWorkOrders>>, maintainers: null, settings: null, handlers: [], filterError: refusal(error, ctx.lang).body.msg };
  }
}

/** Opens a work order by hand, turns automatic orders on or off, or removes a maintainer. */
export async function maintainAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = Object.fromEntries(await actionForm(request)) as Record<string, string>;
  try {
    if (form.intent === "autoOpen") {
      await workOrders.updateMaintenanceSettings(ctx, { autoOpen: form.autoOpen === "true" });
      return { ok: true as const, intent: "autoOpen" };
    }
    if (form.intent === "deleteMaintainer") {
      await deleteMaintainer(ctx, bodyId(form.id));
      return { ok: true as const, intent: "deleteMaintainer" };
    }
    const { intent: _intent, maintainerId, ...rest } = form;
    const created = await workOrders.createWorkOrder(ctx, { ...rest, ...(maintainerId && { maintainerId }) });
    return { ok: true as const, intent: "create", id: created.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadWorkOrder({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const order = await workOrders.getWorkOrder(ctx, routeId(params.id));
  const maintainer = ctx.actor.role?.type === "MAINTAINER";
  const handlers = maintainer ? [] : (await listMaintainers(ctx, { size: 100 })).records.map((m) => ({ id: m.id, name: m.name, username: m.username }));
  return { order, maintainer, handlers };
}

/** The steps of a work order: process, audit, or a change while it is to do. */
export async function workOrderAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const id = routeId(params.id);
  const form = Object.fromEntries(await actionForm(request)) as Record<string, string>;
  try {
    if (form.intent === "process") await workOrders.processWorkOrder(ctx, id, { handlingProcess: form.handlingProcess, opinion: form.opinion });
    else if (form.intent === "audit") await workOrders.auditWorkOrder(ctx, id, { result: form.result, opinion: form.opinion });
    else await workOrders.updateWorkOrder(ctx, id, { cause: form.cause, remarks: form.remarks, maintainerId: form.maintainerId ? form.maintainerId : null });
    return { ok: true as const, intent: form.intent };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadMaintainerForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [choices, maintainer] = await Promise.all([maintainerChoices(ctx), params.id ? getMaintainer(ctx, routeId(params.id)) : Promise.resolve(null)]);
  // Nobody changes their own scope (docs/rules/maintenance.md "Maintainers"): the form shows it read-only.
  return { choices, maintainer, own: maintainer?.accountId === ctx.actor.accountId };
}

export async function saveMaintainer({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const saved = params.id ? await updateMaintainer(ctx, routeId(params.id), input) : await createMaintainer(ctx, input);
    return { ok: true as const, id: saved.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
