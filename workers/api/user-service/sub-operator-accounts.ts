import { enableInput } from "../../../domain/schemas/account-service";
import { financeQuery, subOperatorAccountsQuery, subOperatorInfoInput, subOperatorInput, subOperatorUpdateInput } from "../../../domain/schemas/platform";
import {
  createSubOperator,
  getSubOperator,
  listSubOperators,
  setSubOperatorStatus,
  subOperatorFinance,
  subOperatorInfo,
  updateSubOperator,
  updateSubOperatorInfo,
} from "../../services/sub-operators/accounts";
import { idParam, route } from "../app";

/**
 * Sub-operator management (docs/rules/platform.md "Sub-operators"). Fixed paths (`info`,
 * `finance`) are declared before `{id}`.
 */
const tag = "Sub-operators";

export const routes = [
  route(
    { method: "get", path: "/user-service/sub-operator/info", summary: "The sub-operator's own record (subOperatorInfo)", tag, verb: subOperatorInfo },
    (ctx) => subOperatorInfo(ctx),
  ),
  route(
    {
      method: "put",
      path: "/user-service/sub-operator/info",
      summary: "The sub-operator edits its own contact and accounts (subOperatorInfoEdit)",
      tag,
      verb: updateSubOperatorInfo,
      body: subOperatorInfoInput,
    },
    (ctx, { body }) => updateSubOperatorInfo(ctx, body),
  ),
  route(
    {
      method: "get",
      path: "/user-service/sub-operator/finance",
      summary: "Each sub-operator's sessions, energy and revenue (null until charge records are priced) in a period",
      tag,
      verb: subOperatorFinance,
      query: financeQuery,
    },
    (ctx, { query }) => subOperatorFinance(ctx, query),
  ),
  route(
    { method: "get", path: "/user-service/sub-operator", summary: "The operator's sub-operators, paged", tag, verb: listSubOperators, query: subOperatorAccountsQuery },
    (ctx, { query }) => listSubOperators(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/user-service/sub-operator",
      summary: "Create a sub-operator with its SUPER role and first account in one batch; answers the initial password once",
      tag,
      verb: createSubOperator,
      body: subOperatorInput,
    },
    (ctx, { body }) => createSubOperator(ctx, body),
  ),
  route({ method: "get", path: "/user-service/sub-operator/{id}", summary: "One sub-operator", tag, verb: getSubOperator, params: idParam }, (ctx, { params }) =>
    getSubOperator(ctx, params.id),
  ),
  route(
    { method: "put", path: "/user-service/sub-operator/{id}", summary: "Edit a sub-operator", tag, verb: updateSubOperator, params: idParam, body: subOperatorUpdateInput },
    (ctx, { params, body }) => updateSubOperator(ctx, params.id, body),
  ),
  route(
    {
      method: "put",
      path: "/user-service/sub-operator/{id}/enable",
      summary: "Enable or disable a sub-operator (disabled: its sessions end, it cannot log in)",
      tag,
      verb: setSubOperatorStatus,
      params: idParam,
      body: enableInput,
    },
    (ctx, { params, body }) => setSubOperatorStatus(ctx, params.id, body),
  ),
];
