import { enableInput } from "../../../domain/schemas/account-service";
import { financeQuery, subOperatorAccountsQuery, subOperatorInfoInput, subOperatorInput, subOperatorUpdateInput } from "../../../domain/schemas/platform";
import * as accounts from "../../services/sub-operators/accounts";
import { resource } from "../resource";

/**
 * Sub-operator management (docs/rules/platform.md "Sub-operators"). Fixed paths (`info`,
 * `finance`) are declared before `{id}`.
 */
const tag = "Sub-operators";
const info = resource(tag, "/user-service/sub-operator/info");
const subOperator = resource(tag, "/user-service/sub-operator");

export const routes = [
  info.get("", "The sub-operator's own record (subOperatorInfo)", accounts.subOperatorInfo),
  info.put("", "The sub-operator edits its own contact and accounts (subOperatorInfoEdit)", accounts.updateSubOperatorInfo, subOperatorInfoInput),
  subOperator.get("/finance", "Each sub-operator's sessions, energy and revenue (null until charge records are priced) in a period", accounts.subOperatorFinance, financeQuery),
  subOperator.list("The operator's sub-operators, paged", accounts.listSubOperators, subOperatorAccountsQuery),
  subOperator.create("Create a sub-operator with its SUPER role and first account in one batch; answers the initial password once", accounts.createSubOperator, subOperatorInput),
  subOperator.detail("One sub-operator", accounts.getSubOperator),
  subOperator.update("Edit a sub-operator", accounts.updateSubOperator, subOperatorUpdateInput),
  subOperator.put("/{id}/enable", "Enable or disable a sub-operator (disabled: its sessions end, it cannot log in)", accounts.setSubOperatorStatus, enableInput),
];
