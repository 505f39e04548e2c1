import { roleInput, roleListQuery } from "../../../domain/schemas/account-service";
import { createRole, deleteRole, getRole, listRoles, roleOptions, updateRole } from "../../services/roles/roles";
import { idParam, route } from "../app";

const tag = "Account service: roles";
const access = { menu: "carrier.role" };

route({ method: "get", path: "/user-service/role", summary: "Roles, paged and filtered", tag, access, query: roleListQuery }, (ctx, { query }) =>
  listRoles(ctx, query),
);
route({ method: "post", path: "/user-service/role", summary: "Create a role", tag, access, body: roleInput }, (ctx, { body }) =>
  createRole(ctx, body),
);
route(
  { method: "get", path: "/user-service/role/options", summary: "Enabled roles for the account form", tag, access: { menu: "carrier.carrierAcount" } },
  (ctx) => roleOptions(ctx),
);
route({ method: "get", path: "/user-service/role/{id}", summary: "One role", tag, access, params: idParam }, (ctx, { params }) =>
  getRole(ctx, params.id),
);
route(
  { method: "put", path: "/user-service/role/{id}", summary: "Update a role", tag, access, params: idParam, body: roleInput },
  (ctx, { params, body }) => updateRole(ctx, params.id, body),
);
route({ method: "delete", path: "/user-service/role/{id}", summary: "Delete an unused role", tag, access, params: idParam }, async (ctx, { params }) => {
  await deleteRole(ctx, params.id);
  return null;
});
