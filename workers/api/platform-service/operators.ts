import { operatorInput, operatorListQuery, operatorStatusInput, operatorUpdateInput } from "../../../domain/schemas/platform";
import { createOperator, getOperator, listOperators, setOperatorStatus, updateOperator } from "../../services/platform/operators";
import { resource } from "../resource";

/** The platform's operators (docs/rules/platform.md "Operators"): the platform's SUPER accounts only. */
const operator = resource("Platform service: operators", "/platform-service/operator");

export const routes = [
  operator.list("Operators, paged; filter by code (prefix), name, edition and validity", listOperators, operatorListQuery),
  operator.create("Provision an operator with its settings, SUPER role, admin account and domains in one batch; answers the admin's initial password once", createOperator, operatorInput),
  operator.detail("One operator with its settings, domains and owner account", getOperator),
  operator.update("Edit an operator: edition (its users see it at their next request), validity, contact, accounts, domains", updateOperator, operatorUpdateInput),
  operator.put("/{id}/status", "Enable or disable an operator (disabled: no login, chargers Rejected at boot, data kept)", setOperatorStatus, operatorStatusInput),
];
