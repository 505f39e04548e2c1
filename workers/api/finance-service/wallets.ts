import { billListQuery, memberLevelInput, rechargeInput, rechargeQuery } from "../../../domain/schemas/wallets";
import { billDetail, listBills } from "../../services/wallets/bills";
import { setMemberLevel } from "../../services/wallets/membership";
import { listRecharges, recharge } from "../../services/wallets/recharges";
import { resource } from "../resource";

const tag = "Finance service: wallets and bills";
const recharges = resource(tag, "/finance-service/recharge");
const bill = resource(tag, "/finance-service/bill");
const customer = resource(tag, "/customer-service/customer");

export const routes = [
  recharges.create(
    "Recharge a customer by hand (way ADMIN): a positive amount in minor units tops up (at least the minimum recharge), a negative one deducts (never below zero); writes the recharge record and its Recharge bill with the balance, in one batch",
    recharge,
    rechargeInput,
  ),
  recharges.list("Recharge records, newest first, paged (customerId, way, from/to as yyyy-MM-dd or a local date-time in the operator's time zone)", listRecharges, rechargeQuery),
  bill.list("Bills (expense records), newest first, paged (customerId, type Recharge|Member|Charging, status Paying|PaySuccess|PayFail, from/to)", listBills, billListQuery),
  bill.detail("One bill", billDetail),
  customer.put(
    "/{id}/member-level",
    "Change a customer's member level (NORMAL, SILVER, GOLD; any direction, renewal included): a paid level costs its monthly fee from the parameter settings times months (1 unless told), paid from the balance; writes a Member bill",
    setMemberLevel,
    memberLevelInput,
  ),
];
