import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { createAccount, getAccount, listAccounts, setAccountStatus, updateAccount } from "../../../workers/services/accounts/accounts";
import { roleOptions } from "../../../workers/services/roles/roles";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The account list, filtered and paged by the verb, with the roles for the role filter. */
export async function loadAccounts({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, roles] = await Promise.all([listAccounts(ctx, searchParamsObject(request)), roleOptions(ctx)]);
  return { page, roles };
}

/** The list's action: enable or disable the posted account. */
export async function setAccountStatusAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const result = await setAccountStatus(ctx, bodyId(form.get("id")), { status: form.get("status") });
    return { ok: true as const, status: result.status };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadAccount({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return getAccount(ctx, routeId(params.id));
}

/** The account being edited (none when adding) and the roles it may be given. */
export async function loadAccountForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [account, roles] = await Promise.all([params.id ? getAccount(ctx, routeId(params.id)) : null, roleOptions(ctx)]);
  return { account, roles };
}

/** Creates or updates an account; a new one's initial password comes back to be shown once. */
export async function saveAccount({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    if (params.id) {
      await updateAccount(ctx, routeId(params.id), input);
      return { ok: true as const, initialPassword: null, username: null };
    }
    const created = await createAccount(ctx, input);
    return { ok: true as const, initialPassword: created.initialPassword, username: created.username };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
