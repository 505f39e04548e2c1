import type { Route } from "./app";
import type * as userAuth from "./user-service/auth";
import type * as userPerson from "./user-service/person";
import type * as userOperators from "./user-service/operators";
import type * as userRoles from "./user-service/roles";
import type * as userAccounts from "./user-service/accounts";
import type * as stationStations from "./station-service/stations";
import type * as stationPoints from "./station-service/points";
import type * as stationDeviceModel from "./station-service/device-model";
import type * as stationRemoteControl from "./station-service/remote-control";
import type * as stationCertificates from "./station-service/certificates";
import type * as stationMonitoring from "./station-service/monitoring";
import type * as stationAlarms from "./station-service/alarms";
import type * as stationResilience from "./station-service/resilience";
import type * as stationDashboard from "./station-service/dashboard";
import type * as stationUptime from "./station-service/uptime";
import type * as userSubOperators from "./user-service/sub-operators";
import type * as stationChargeRecords from "./station-service/charge-records";
import type * as customerCustomers from "./customer-service/customers";
import type * as customerGroups from "./customer-service/groups";
import type * as customerCards from "./customer-service/cards";
import type * as financeStrategies from "./finance-service/strategies";
import type * as financeStatements from "./finance-service/statements";
import type * as systemSettings from "./system-service/settings";
import type * as stationLoadBalancing from "./station-service/load-balancing";
import type * as maintainFirmware from "./maintain-service/firmware";
import type * as maintainFaults from "./maintain-service/faults";
import type * as userSubOperatorAccounts from "./user-service/sub-operator-accounts";
import type * as platformOperators from "./platform-service/operators";
import type * as platformPricePackages from "./platform-service/price-packages";
import type * as customerVehicles from "./customer-service/vehicles";
import type * as customerOfflineLists from "./customer-service/offline-lists";
import type * as stationReservations from "./station-service/reservations";
import type * as systemContent from "./system-service/content";
import type * as userCarrierInfo from "./user-service/carrier-info";
import type * as financeWallets from "./finance-service/wallets";
import type * as financeDiscounts from "./finance-service/discounts";
import type * as customerDiscountCards from "./customer-service/discount-cards";
import type * as maintainWorkOrders from "./maintain-service/work-orders";
import type * as customerAccountDeletion from "./customer-service/account-deletion";
import type * as systemMedia from "./system-service/media";
import type * as systemPaymentChannels from "./system-service/payment-channels";
import type * as systemRetention from "./system-service/retention";
import type * as financePayments from "./finance-service/payments";
import type * as ocpiRoaming from "./ocpi-service/roaming";
import type * as ocpiCommands from "./ocpi-service/commands";
import type * as ocpiCpoPublish from "./ocpi-service/cpo-publish";
import type * as ocpiCpoSessions from "./ocpi-service/cpo-sessions";
import type * as publicAdHoc from "./public-service/ad-hoc";
import type * as publicCharger from "./public-service/charger";
import type * as publicFeedback from "./public-service/feedback";

/** The routes each route module exports (its `Route` arrays), as one union. */
type RoutesOf<Module> = Module extends unknown ? { [K in keyof Module]: Module[K] extends readonly (infer R extends Route)[] ? R : never }[keyof Module] : never;

/**
 * Every JSON route of the API as types: the console's client takes its paths, inputs and results
 * from here (docs/rules/console.md "API client"). Type-only: nothing of the worker reaches the browser.
 * A route module that `index.ts` imports is listed here too (tests/unit/api-client.test.ts checks it).
 */
export type ApiRoute = RoutesOf<
  | typeof userAuth
  | typeof userPerson
  | typeof userOperators
  | typeof userRoles
  | typeof userAccounts
  | typeof stationStations
  | typeof stationPoints
  | typeof stationDeviceModel
  | typeof stationRemoteControl
  | typeof stationCertificates
  | typeof stationMonitoring
  | typeof stationAlarms
  | typeof stationResilience
  | typeof stationDashboard
  | typeof stationUptime
  | typeof userSubOperators
  | typeof stationChargeRecords
  | typeof customerCustomers
  | typeof customerGroups
  | typeof customerCards
  | typeof financeStrategies
  | typeof financeStatements
  | typeof systemSettings
  | typeof stationLoadBalancing
  | typeof maintainFirmware
  | typeof maintainFaults
  | typeof userSubOperatorAccounts
  | typeof platformOperators
  | typeof platformPricePackages
  | typeof customerVehicles
  | typeof customerOfflineLists
  | typeof stationReservations
  | typeof systemContent
  | typeof userCarrierInfo
  | typeof financeWallets
  | typeof financeDiscounts
  | typeof customerDiscountCards
  | typeof maintainWorkOrders
  | typeof customerAccountDeletion
  | typeof systemMedia
  | typeof systemPaymentChannels
  | typeof systemRetention
  | typeof financePayments
  | typeof ocpiRoaming
  | typeof ocpiCommands
  | typeof ocpiCpoPublish
  | typeof ocpiCpoSessions
  | typeof publicAdHoc
  | typeof publicCharger
  | typeof publicFeedback
>;
