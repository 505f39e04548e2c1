import { roleInput, roleListQuery } from "../../../domain/schemas/account-service";
import { createRole, deleteRole, getRole, listRoles, roleOptions, updateRole } from "../../services/roles/roles";
import { idParam, route } from "../app";

const tag = "Account service: roles";

export const routes = [
  route({ method: "get", path: "/user-service/role", summary: "Roles, paged and filtered", tag, verb: listRoles, query: roleListQuery }, (ctx, { query }) =>
    listRoles(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/user-service/role",
      summary: "Create a role: only menus the actor holds; a SUPER role only by a SUPER",
      tag,
      verb: createRole,
      body: roleInput,
    },
    (ctx, { body }) => createRole(ctx, body),
  ),
  route(
    { method: "get", path: "/user-service/role/options", summary: "Enabled roles for the account form, each marked assignable or not", tag, verb: roleOptions },
    (ctx) => roleOptions(ctx),
  ),
  route({ method: "get", path: "/user-service/role/{id}", summary: "One role", tag, verb: getRole, params: idParam }, (ctx, { params }) =>
    getRole(ctx, params.id),
  ),
  route(
    {
      method: "put",
      path: "/user-service/role/{id}",
      summary: "Update a role (never the actor's own; a SUPER role only by a SUPER)",
      tag,
      verb: updateRole,
      params: idParam,
      body: roleInput,
    },
    (ctx, { params, body }) => updateRole(ctx, params.id, body),
  ),
  route({ method: "delete", path: "/user-service/role/{id}", summary: "Delete an unused role", tag, verb: deleteRole, params: idParam }, (ctx, { params }) =>
    deleteRole(ctx, params.id),
  ),
];
