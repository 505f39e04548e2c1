import { groupInput, groupListQuery, groupMemberQuery, optionsQuery } from "../../../domain/schemas/drivers";
import { createGroup, deleteGroup, groupDetail, groupOptions, listGroupMembers, listGroups, updateGroup } from "../../services/drivers/groups";
import { idParam, route } from "../app";

const tag = "Customer service";

export const routes = [
  route(
    { method: "get", path: "/customer-service/group", summary: "Customer groups, newest first, paged (name, code)", tag, verb: listGroups, query: groupListQuery },
    (ctx, { query }) => listGroups(ctx, query),
  ),

  route(
    {
      method: "post",
      path: "/customer-service/group",
      summary: "Create a group: code (its members' parent id tag) unique in the operator, a leader among at least one member",
      tag,
      verb: createGroup,
      body: groupInput,
    },
    (ctx, { body }) => createGroup(ctx, body),
  ),

  // Fixed paths before `{id}`, which would otherwise take them.
  route(
    {
      method: "get",
      path: "/customer-service/group/member",
      summary: "Members of every group with whose balance they charge on, paged (groupId, name, payWay)",
      tag,
      verb: listGroupMembers,
      query: groupMemberQuery,
    },
    (ctx, { query }) => listGroupMembers(ctx, query),
  ),

  route(
    { method: "get", path: "/customer-service/group/options", summary: "Groups matching a keyword (name or code), at most 20", tag, verb: groupOptions, query: optionsQuery },
    (ctx, { query }) => groupOptions(ctx, query),
  ),

  route(
    { method: "get", path: "/customer-service/group/{id}", summary: "A group with its leader and members", tag, verb: groupDetail, params: idParam },
    (ctx, { params }) => groupDetail(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/customer-service/group/{id}",
      summary: "Edit a group; members who leave pay personally again",
      tag,
      verb: updateGroup,
      params: idParam,
      body: groupInput,
    },
    (ctx, { params, body }) => updateGroup(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: "/customer-service/group/{id}", summary: "Delete a group; its members stay, outside any group", tag, verb: deleteGroup, params: idParam },
    (ctx, { params }) => deleteGroup(ctx, params.id),
  ),
];
