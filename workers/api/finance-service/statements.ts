import { collectionAccountInput, collectionTotalsQuery, statementQuery } from "../../../domain/schemas/statements";
import { collectionAccount, collectionTotals, updateCollectionAccount } from "../../services/statements/collection-account";
import { financialStatement } from "../../services/statements/statements";
import { resource } from "../resource";

const tag = "Finance service: statements and collection account";
const account = resource(tag, "/finance-service/collection-account");
const financeService = resource(tag, "/finance-service");

export const routes = [
  financeService.get(
    "/statement",
    "Energy, revenue by cost line, sessions and the average session of a period of local days (at most 366), grouped by station, point, day or month; a sub-operator's devices only for a sub-operator or with subOperatorId",
    financialStatement,
    statementQuery,
  ),
  account.get("", "The operator's collection and clearing accounts", collectionAccount),
  account.put("", "Edit the operator's charge, clearing, card-payment and PayPal accounts", updateCollectionAccount, collectionAccountInput),
  account.get("/totals", "Successful top-ups and charging payments of a period of local days, per type and payment way", collectionTotals, collectionTotalsQuery),
];
