import { api } from "./app";
import "./user-service/auth";
import "./user-service/person";
import "./user-service/operators";
import "./user-service/roles";
import "./user-service/accounts";
import "./user-service/files";
import "./user-service/upload";
import "./station-service/stations";
import "./station-service/points";
import "./station-service/device-model";
import "./station-service/remote-control";
import "./station-service/certificates";
import "./station-service/monitoring";
import "./station-service/alarms";
import "./station-service/resilience";
import "./station-service/dashboard";
import "./station-service/uptime";
import "./user-service/sub-operators";
import "./station-service/charge-records";
import "./customer-service/avatar";
import "./customer-service/customers";
import "./customer-service/groups";
import "./customer-service/cards";
import "./finance-service/strategies";
import "./finance-service/statements";
import "./system-service/settings";
import "./station-service/load-balancing";
import "./maintain-service/firmware";
import "./maintain-service/faults";
import "./user-service/sub-operator-accounts";
import "./platform-service/operators";
import "./platform-service/price-packages";
import "./customer-service/vehicles";
import "./customer-service/offline-lists";
import "./station-service/reservations";
import "./system-service/content";
import "./user-service/carrier-info";
import "./finance-service/wallets";
import "./finance-service/discounts";
import "./customer-service/discount-cards";
import "./maintain-service/work-orders";
import "./customer-service/account-deletion";
import "./system-service/media";
import "./system-service/payment-channels";
import "./system-service/retention";
import "./finance-service/payments";
import "./ocpi-service/roaming";
import "./ocpi-service/commands";
import "./ocpi-service/cpo-publish";
import "./ocpi-service/cpo-sessions";
import "./public-service/ad-hoc";
import "./public-service/charger";
import "./public-service/feedback";

api.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
api.doc31("/openapi.json", {
  openapi: "3.1.0",
  info: {
    title: "Plugdesk API",
    version: "1",
    description: "Every answer is `{ code, msg, data }`; `lang` (zh, en, zh_TW, pl, pt_BR, de) picks the message language.",
  },
});

/** Path prefixes that the API answers; everything else is the console. */
export const API_PREFIXES = ["/user-service/", "/station-service/", "/customer-service/", "/finance-service/", "/system-service/", "/maintain-service/", "/platform-service/", "/ocpi-service/", "/public-service/", "/openapi.json"];
export const isApiPath = (pathname: string) => API_PREFIXES.some((p) => pathname === p.replace(/\/$/, "") || pathname.startsWith(p));

export { api };
