import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { flattenCatalogue } from "../tenants/menu-catalogue";
import { contentScreens } from "./routes/content/route-map";
import { paymentScreens } from "./routes/payments/route-map";
import { driverScreens } from "./routes/drivers/route-map";
import { walletScreens } from "./routes/wallets/route-map";
import { equipmentScreens } from "./routes/equipment/route-map";
import { financeScreens } from "./routes/finance/route-map";
import { monitoringScreens } from "./routes/monitoring/route-map";
import { recordScreens } from "./routes/records/route-map";
import { settingsScreens } from "./routes/settings/route-map";
import { operationsScreens } from "./routes/operations/route-map";
import { platformScreens } from "./routes/platform/route-map";
import { driverServiceScreens } from "./routes/driver-services/route-map";
import { statementScreens } from "./routes/statements/route-map";
import { maintenanceScreens } from "./routes/maintenance/route-map";
import { emspScreens } from "./routes/emsp/route-map";
import { cpoScreens } from "./routes/cpo/route-map";

/**
 * Every URL of the menu catalogue and the module of its screen (docs/rules/console.md "Route
 * guard"): a catalogue URL without one fails the build, so no menu entry leads to a placeholder.
 */
const dedicated: Record<string, string> = {
  "/carrierSystem/role": "routes/carrier/roles.tsx",
  "/carrierSystem/role/add": "routes/carrier/role-form.tsx",
  "/carrierSystem/role/edit/:id": "routes/carrier/role-form.tsx",
  "/carrierSystem/role/detail/:id": "routes/carrier/role-detail.tsx",
  "/carrierSystem/carrierAcount": "routes/carrier/accounts.tsx",
  "/carrierSystem/carrierAcount/add": "routes/carrier/account-form.tsx",
  "/carrierSystem/carrierAcount/edit/:id": "routes/carrier/account-form.tsx",
  "/carrierSystem/carrierAcount/detail/:id": "routes/carrier/account-detail.tsx",
  ...equipmentScreens,
  ...driverScreens,
  ...monitoringScreens,
  ...financeScreens,
  ...recordScreens,
  ...settingsScreens,
  ...operationsScreens,
  ...platformScreens,
  ...driverServiceScreens,
  ...contentScreens,
  ...statementScreens,
  ...walletScreens,
  ...maintenanceScreens,
  ...paymentScreens,
  ...emspScreens,
  ...cpoScreens,
};

const paths = flattenCatalogue().flatMap(({ entry }) => [
  ...(entry.url ? [entry.url] : []),
  ...(entry.pages ?? []).map((p) => p.path),
]);

function screen(path: string) {
  const module = dedicated[path];
  if (!module) throw new Error(`The menu catalogue's ${path} has no screen module in app/routes.ts`);
  return route(path.slice(1), module, { id: `screen:${path}` });
}

export default [
  index("routes/index.tsx"),
  route("homePage", "routes/home-page.tsx", { id: "homePage" }),
  route("carrierList", "routes/home-page.tsx", { id: "carrierList" }),
  route(":operatorCode/login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  route("404", "routes/not-found.tsx", { id: "notFound" }),
  route("rePassword", "routes/re-password.tsx", { id: "rePassword" }),
  route("suboperators/rePassword", "routes/re-password.tsx", { id: "subRePassword" }),
  // Public receipt pages, without login (docs/rules/records.md "Receipts").
  route("tourist/chargingRecordDetails/:id", "routes/records/public-receipt.tsx", { id: "touristRecord" }),
  route("tourist/invoices/:id", "routes/records/public-receipt.tsx", { id: "touristInvoice" }),
  route("valina-bill/:code", "routes/records/public-receipt.tsx", { id: "valinaBill" }),
  // Public texts for drivers, without login (docs/rules/content.md "Disclaimer and privacy policy").
  route("disclaimer/mobile", "routes/content/public-text.tsx", { id: "disclaimerMobile" }),
  route("privacy/mobile", "routes/content/public-text.tsx", { id: "privacyMobile" }),
  // Drivers ask to delete their account, without login (docs/rules/maintenance.md "Account deletion").
  route("app/delete/account", "routes/maintenance/delete-account.tsx", { id: "deleteAccount" }),
  // A charger's public page, the one its QR code opens, without login (docs/rules/public-charger.md "The charger page").
  route("charge/:serialNumber", "routes/charge/charger-page.tsx", { id: "publicCharger" }),
  layout("routes/console/layout.tsx", [
    layout("routes/console/screen-frame.tsx", [...new Set(paths)].map(screen)),
    route("station/cashier/:id", "routes/records/cashier.tsx", { id: "cashier" }),
  ]),
  route("*", "routes/not-found.tsx", { id: "catchAll" }),
] satisfies RouteConfig;
