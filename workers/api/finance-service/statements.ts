import { collectionAccountInput, collectionTotalsQuery, statementQuery } from "../../../domain/schemas/statements";
import { collectionAccount, collectionTotals, updateCollectionAccount } from "../../services/statements/collection-account";
import { financialStatement } from "../../services/statements/statements";
import { route } from "../app";

const tag = "Finance service: statements and collection account";

export const routes = [
  route(
    {
      method: "get",
      path: "/finance-service/statement",
      summary:
        "Energy, revenue by cost line, sessions and the average session of a period of local days (at most 366), grouped by station, point, day or month; a sub-operator's devices only for a sub-operator or with subOperatorId",
      tag,
      verb: financialStatement,
      query: statementQuery,
    },
    (ctx, { query }) => financialStatement(ctx, query),
  ),
  route(
    { method: "get", path: "/finance-service/collection-account", summary: "The operator's collection and clearing accounts", tag, verb: collectionAccount },
    (ctx) => collectionAccount(ctx),
  ),
  route(
    {
      method: "put",
      path: "/finance-service/collection-account",
      summary: "Edit the operator's charge, clearing, card-payment and PayPal accounts",
      tag,
      verb: updateCollectionAccount,
      body: collectionAccountInput,
    },
    (ctx, { body }) => updateCollectionAccount(ctx, body),
  ),
  route(
    {
      method: "get",
      path: "/finance-service/collection-account/totals",
      summary: "Successful top-ups and charging payments of a period of local days, per type and payment way",
      tag,
      verb: collectionTotals,
      query: collectionTotalsQuery,
    },
    (ctx, { query }) => collectionTotals(ctx, query),
  ),
];
