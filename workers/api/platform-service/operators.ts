import { operatorInput, operatorListQuery, operatorStatusInput, operatorUpdateInput } from "../../../domain/schemas/platform";
import { createOperator, getOperator, listOperators, setOperatorStatus, updateOperator } from "../../services/platform/operators";
import { idParam, route } from "../app";

/** The platform's operators (docs/rules/platform.md "Operators"): the platform's SUPER accounts only. */
const tag = "Platform service: operators";

export const routes = [
  route(
    { method: "get", path: "/platform-service/operator", summary: "Operators, paged; filter by code (prefix), name, edition and validity", tag, verb: listOperators, query: operatorListQuery },
    (ctx, { query }) => listOperators(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/platform-service/operator",
      summary: "Provision an operator with its settings, SUPER role, admin account and domains in one batch; answers the admin's initial password once",
      tag,
      verb: createOperator,
      body: operatorInput,
    },
    (ctx, { body }) => createOperator(ctx, body),
  ),
  route({ method: "get", path: "/platform-service/operator/{id}", summary: "One operator with its settings, domains and owner account", tag, verb: getOperator, params: idParam }, (ctx, { params }) =>
    getOperator(ctx, params.id),
  ),
  route(
    {
      method: "put",
      path: "/platform-service/operator/{id}",
      summary: "Edit an operator: edition (its users see it at their next request), validity, contact, accounts, domains",
      tag,
      verb: updateOperator,
      params: idParam,
      body: operatorUpdateInput,
    },
    (ctx, { params, body }) => updateOperator(ctx, params.id, body),
  ),
  route(
    {
      method: "put",
      path: "/platform-service/operator/{id}/status",
      summary: "Enable or disable an operator (disabled: no login, chargers Rejected at boot, data kept)",
      tag,
      verb: setOperatorStatus,
      params: idParam,
      body: operatorStatusInput,
    },
    (ctx, { params, body }) => setOperatorStatus(ctx, params.id, body),
  ),
];
