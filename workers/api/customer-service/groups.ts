import { groupInput, groupListQuery, groupMemberQuery, optionsQuery } from "../../../domain/schemas/drivers";
import { createGroup, deleteGroup, groupDetail, groupOptions, listGroupMembers, listGroups, updateGroup } from "../../services/drivers/groups";
import { resource } from "../resource";

const tag = "Customer service";
const group = resource(tag, "/customer-service/group");

export const routes = [
  group.list("Customer groups, newest first, paged (name, code)", listGroups, groupListQuery),
  group.create("Create a group: code (its members' parent id tag) unique in the operator, a leader among at least one member", createGroup, groupInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  group.get("/member", "Members of every group with whose balance they charge on, paged (groupId, name, payWay)", listGroupMembers, groupMemberQuery),
  group.get("/options", "Groups matching a keyword (name or code), at most 20", groupOptions, optionsQuery),
  group.detail("A group with its leader and members", groupDetail),
  group.update("Edit a group; members who leave pay personally again", updateGroup, groupInput),
  group.remove("Delete a group; its members stay, outside any group", deleteGroup),
];
