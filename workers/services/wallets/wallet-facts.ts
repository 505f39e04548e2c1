import { NotFound } from "../../../domain/errors";
import { customerName, findCustomer } from "../drivers/customers";
import { operatorSettings } from "../settings/parameter-settings";
import { verb } from "../verb";
import { BILL_READ_MENUS } from "./bills";
import { memberFee } from "./membership";
import { RECHARGE_READ_MENUS } from "./recharges";

/** Every screen that reads a wallet: recharges, bills, expense records, the customer page. */
const WALLET_READ_MENUS = [...new Set([...RECHARGE_READ_MENUS, ...BILL_READ_MENUS])];

/**
 * The customer a wallet list is filtered by, named for the filter (docs/rules/wallets.md
 * "Screens"); null for an id that is not one of the operator's customers.
 */
export const filterCustomer = verb({ menu: WALLET_READ_MENUS }, async (ctx, id: number) => {
  const customer = await findCustomer(ctx, id).catch((error: unknown) => {
    if (error instanceof NotFound) return null;
    throw error;
  });
  return customer && { id: customer.id, label: `${customerName(customer)} · ${customer.email}` };
});

/**
 * What the wallet dialogs show beside their fields: the minimum top-up, the top-up amounts offered
 * (the settings' `rechargeParameter.presets`, docs/rules/wallets.md "Recharges"), each paid
 * level's monthly fee.
 */
export const walletSettings = verb({ menu: WALLET_READ_MENUS }, async (ctx) => {
  const settings = await operatorSettings(ctx);
  return {
    minimumRecharge: settings.minimumRecharge,
    rechargePresets: settings.rechargeParameter.presets,
    membershipFees: { SILVER: memberFee(settings, "SILVER"), GOLD: memberFee(settings, "GOLD"), NORMAL: 0 },
  };
});
