import { roleInput, roleListQuery } from "../../../domain/schemas/account-service";
import { createRole, deleteRole, getRole, listRoles, roleOptions, updateRole } from "../../services/roles/roles";
import { resource } from "../resource";

const role = resource("Account service: roles", "/user-service/role");

export const routes = [
  role.list("Roles, paged and filtered", listRoles, roleListQuery),
  role.create("Create a role: only menus the actor holds; a SUPER role only by a SUPER", createRole, roleInput),
  role.get("/options", "Enabled roles for the account form, each marked assignable or not", roleOptions),
  role.detail("One role", getRole),
  role.update("Update a role (never the actor's own; a SUPER role only by a SUPER)", updateRole, roleInput),
  role.remove("Delete an unused role", deleteRole),
];
