import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import {
  createCustomer,
  customerDetail,
  deleteCustomer,
  listCustomers,
  setCustomerStatus,
  updateCustomer,
} from "../../../workers/services/drivers/customers";
import { listGroups } from "../../../workers/services/drivers/groups";
import { uploadCustomerAvatar } from "../../../workers/services/drivers/avatar";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Groups for the group filter and select: the first 100, newest first. */
const groupChoices = async (ctx: Awaited<ReturnType<typeof requireCtx>>) =>
  (await listGroups(ctx, { size: 100 })).records.map((g) => ({ id: g.id, name: g.name, code: g.code }));

/** The customer list, filtered and paged by the verb, with the groups for the group filter. */
export async function loadCustomers({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, groups] = await Promise.all([listCustomers(ctx, searchParamsObject(request)), groupChoices(ctx)]);
  return { page, groups };
}

/** The list's actions: a customer's status (NORMAL or ABNORMAL), or its deletion. */
export async function customerListAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await request.formData();
  try {
    const id = bodyId(form.get("id"));
    if (form.get("intent") === "delete") {
      await deleteCustomer(ctx, id);
      return { ok: true as const, intent: "delete" as const, status: null };
    }
    const customer = await setCustomerStatus(ctx, id, { status: form.get("status") });
    return { ok: true as const, intent: "status" as const, status: customer.status };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadCustomerDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return customerDetail(ctx, routeId(params.id));
}

/** The customer being edited (none when adding), with its points' names, and the groups to choose from. */
export async function loadCustomerForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [detail, groups] = await Promise.all([params.id ? customerDetail(ctx, routeId(params.id)) : null, groupChoices(ctx)]);
  return { customer: detail?.customer ?? null, chargePoints: detail?.chargePoints ?? [], groups };
}

/** Uploads the avatar (a multipart post), or creates or updates the customer from the form's JSON. */
export async function saveCustomer({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    try {
      const length = Number(request.headers.get("Content-Length"));
      const stored = await uploadCustomerAvatar(ctx, {
        declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined,
        readFile: async () => (await request.formData()).get("file"),
      });
      return { ok: true as const, id: null, key: stored.key, url: stored.url };
    } catch (error) {
      return actionError(error, ctx.lang);
    }
  }
  try {
    const input = await actionJson(request);
    const saved = params.id ? await updateCustomer(ctx, routeId(params.id), input) : await createCustomer(ctx, input);
    return { ok: true as const, id: saved.id, key: null, url: null };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
