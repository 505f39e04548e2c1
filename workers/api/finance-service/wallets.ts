import { billListQuery, memberLevelInput, rechargeInput, rechargeQuery } from "../../../domain/schemas/wallets";
import { billDetail, listBills } from "../../services/wallets/bills";
import { setMemberLevel } from "../../services/wallets/membership";
import { listRecharges, recharge } from "../../services/wallets/recharges";
import { idParam, route } from "../app";

const tag = "Finance service: wallets and bills";

export const routes = [
  route(
    {
      method: "post",
      path: "/finance-service/recharge",
      summary:
        "Recharge a customer by hand (way ADMIN): a positive amount in minor units tops up (at least the minimum recharge), a negative one deducts (never below zero); writes the recharge record and its Recharge bill with the balance, in one batch",
      tag,
      verb: recharge,
      body: rechargeInput,
    },
    (ctx, { body }) => recharge(ctx, body),
  ),
  route(
    {
      method: "get",
      path: "/finance-service/recharge",
      summary: "Recharge records, newest first, paged (customerId, way, from/to as yyyy-MM-dd or a local date-time in the operator's time zone)",
      tag,
      verb: listRecharges,
      query: rechargeQuery,
    },
    (ctx, { query }) => listRecharges(ctx, query),
  ),
  route(
    {
      method: "get",
      path: "/finance-service/bill",
      summary: "Bills (expense records), newest first, paged (customerId, type Recharge|Member|Charging, status Paying|PaySuccess|PayFail, from/to)",
      tag,
      verb: listBills,
      query: billListQuery,
    },
    (ctx, { query }) => listBills(ctx, query),
  ),
  route({ method: "get", path: "/finance-service/bill/{id}", summary: "One bill", tag, verb: billDetail, params: idParam }, (ctx, { params }) => billDetail(ctx, params.id)),
  route(
    {
      method: "put",
      path: "/customer-service/customer/{id}/member-level",
      summary:
        "Change a customer's member level (NORMAL, SILVER, GOLD; any direction, renewal included): a paid level costs its monthly fee from the parameter settings times months (1 unless told), paid from the balance; writes a Member bill",
      tag,
      verb: setMemberLevel,
      params: idParam,
      body: memberLevelInput,
    },
    (ctx, { params, body }) => setMemberLevel(ctx, params.id, body),
  ),
];
