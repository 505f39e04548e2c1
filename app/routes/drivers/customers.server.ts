import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import type { Page } from "../../../domain/paging";
import { entryForPath } from "../../../tenants/permissions";
import { listChargeRecords } from "../../../workers/services/charge-records/charge-records";
import type { UserCtx } from "../../../workers/services/context";
import { listVehicles } from "../../../workers/services/driver-services/vehicles";
import { admits, type VerbAccess } from "../../../workers/services/verb";
import { listBills } from "../../../workers/services/wallets/bills";
import {
  createCustomer,
  customerDetail,
  customerRules,
  deleteCustomer,
  listCustomers,
  setCustomerStatus,
  updateCustomer,
} from "../../../workers/services/drivers/customers";
import { groupOption } from "../../../workers/services/drivers/groups";
import { uploadCustomerAvatar } from "../../../workers/services/drivers/avatar";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** A group as the group picker shows it. */
export const groupChoice = (g: { id: number; name: string; code: string }) => ({ id: g.id, label: `${g.name} (${g.code})` });

/**
 * The customer list, filtered and paged by the verb, with the group it is filtered by (the
 * filter's picker searches the groups on the server; docs/rules/lists.md "Pickers").
 */
export async function loadCustomers({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const query = searchParamsObject(request);
  const page = await listCustomers(ctx, query);
  // The verb has checked the id: a group of another operator matches no customer and shows no name.
  const group = query.groupId ? await groupOption(ctx, Number(query.groupId)) : null;
  return { page, group: group && groupChoice(group) };
}

/** The list's actions: a customer's status (NORMAL or ABNORMAL), or its deletion. */
export async function customerListAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
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

/** Rows a section of the customer page shows: the newest of its list. */
const SECTION_ROWS = 10;

/**
 * A section of the customer page (docs/rules/drivers.md "Customer detail"): the customer's newest
 * rows of a list, read through the list's own verb, filtered by the customer on the server; null
 * for a user the verb does not admit (the page leaves the section out, never a 403). `all` is the
 * first of `screens` the user may open, filtered by the customer.
 */
async function section<T>(
  ctx: UserCtx,
  list: ((ctx: UserCtx, raw: unknown) => Promise<Page<T>>) & { access: VerbAccess },
  customerId: number,
  screens: string[],
) {
  if (!admits(list.access, ctx)) return null;
  const page = await list(ctx, { customerId, size: SECTION_ROWS });
  const screen = screens.find((path) => entryForPath(ctx.actor.menu, path));
  return { records: page.records, total: page.total, all: screen ? `${screen}?customerId=${customerId}` : null };
}

/** The customer page: its detail, and its vehicles, charging sessions and expense records. */
export async function loadCustomerDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const detail = await customerDetail(ctx, routeId(params.id));
  const id = detail.customer.id;
  const [vehicles, sessions, expenses] = await Promise.all([
    section(ctx, listVehicles, id, ["/vehicleManage/list"]),
    section(ctx, listChargeRecords, id, ["/financialManagement/chargeRecord"]),
    section(ctx, listBills, id, ["/financialManagement/expenseRecord", "/financialManagement/billManagement"]),
  ]);
  return { ...detail, vehicles, sessions, expenses };
}

/** The customer being edited (none when adding), with its points' names and its group, whichever it is. */
export async function loadCustomerForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const detail = params.id ? await customerDetail(ctx, routeId(params.id)) : null;
  const rules = await customerRules(ctx);
  return { customer: detail?.customer ?? null, chargePoints: detail?.chargePoints ?? [], group: detail?.group ? groupChoice(detail.group) : null, rules };
}

/** Uploads the avatar (a multipart post), or creates or updates the customer from the form's JSON. */
export async function saveCustomer({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    try {
      const length = Number(request.headers.get("Content-Length"));
      const stored = await uploadCustomerAvatar(ctx, {
        declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined,
        readFile: async () => (await actionForm(request)).get("file"),
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
