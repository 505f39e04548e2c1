import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { createGroup, deleteGroup, groupDetail, groupOption, listGroupMembers, listGroups, updateGroup } from "../../../workers/services/drivers/groups";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { groupChoice } from "./customers.server";
import { searchParamsObject } from "../../lib/search-params";

export async function loadGroups({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { page: await listGroups(ctx, searchParamsObject(request)) };
}

export async function deleteGroupAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    await deleteGroup(ctx, bodyId(form.get("id")));
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadGroupDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return groupDetail(ctx, routeId(params.id));
}

export async function loadGroupForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { group: params.id ? await groupDetail(ctx, routeId(params.id)) : null };
}

export async function saveGroup({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const saved = params.id ? await updateGroup(ctx, routeId(params.id), input) : await createGroup(ctx, input);
    return { ok: true as const, id: saved.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The group list screen: members of every group, with the group it is filtered by (its picker searches the groups on the server). */
export async function loadGroupMembers({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const query = searchParamsObject(request);
  const page = await listGroupMembers(ctx, query);
  const group = query.groupId ? await groupOption(ctx, Number(query.groupId)) : null;
  return { page, group: group && groupChoice(group) };
}
