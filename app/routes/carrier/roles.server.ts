import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { catalogueFor, catalogueKeyOf } from "../../../tenants/permissions";
import { createRole, deleteRole, getRole, listRoles, updateRole } from "../../../workers/services/roles/roles";
import type { UserCtx } from "../../../workers/services/context";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The menus a role of this operator may be given: its edition's catalogue. */
const menuCatalogue = (ctx: UserCtx) => catalogueFor(catalogueKeyOf(ctx.operator));

export async function loadRoles({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listRoles(ctx, searchParamsObject(request));
}

/** The list's action: delete the posted role. */
export async function deleteRoleAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    await deleteRole(ctx, bodyId(form.get("id")));
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadRole({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { role: await getRole(ctx, routeId(params.id)), catalogue: menuCatalogue(ctx) };
}

/** The role being edited (none when adding) and the menus to choose from. */
export async function loadRoleForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const role = params.id ? await getRole(ctx, routeId(params.id)) : null;
  return { role, catalogue: menuCatalogue(ctx) };
}

export async function saveRole({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const role = params.id ? await updateRole(ctx, routeId(params.id), input) : await createRole(ctx, input);
    return { ok: true as const, id: role.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
