/**
 * The menu and permission catalogue (docs/rules/access.md "Menus are permissions"; why:
 * docs/decisions/0012-menu-catalogue-is-the-permission-source.md). One entry per screen of the
 * operator and sub-operator areas; sub-pages (`pages`) hang under their list and are allowed
 * through their meta parent's URL. Menu codes are what roles select and what the API checks, so
 * this file is the single place that says which screen needs which permission.
 */

/**
 * The operator area, the reduced sub-operator area, and the platform's own area (operators and
 * price packages), which only the platform's tenant has (docs/rules/platform.md "The platform's menus").
 */
export type MenuArea = "OPERATOR" | "SUB" | "PLATFORM";
/**
 * Top-level groups built from permissions are ccms, ocpi and tenant
 * (docs/rules/console.md "Shell").
 */
export type MenuTop = "ccms" | "ocpi" | "tenant";

export interface MenuPage {
  /** Route pattern, React Router style (`:id`). */
  path: string;
  titleKey: string;
}

/**
 * What a screen lets its holder do (docs/rules/access.md "Watching is not operating"): only
 * watch, manage records, or also send chargers commands. The role editor shows it per screen.
 */
export type MenuAccess = "watch" | "manage" | "operate";

export interface MenuEntry {
  code: string;
  access: MenuAccess;
  titleKey: string;
  area: MenuArea;
  top: MenuTop;
  icon?: string;
  /** A leaf has a URL; a group has children. */
  url?: string;
  children?: MenuEntry[];
  pages?: MenuPage[];
  /**
   * Only operators whose code starts with this (0PL) see the entry
   * (docs/rules/access.md "Menus are permissions").
   */
  codePrefix?: string;
}

interface Spec {
  code: string;
  url?: string;
  icon?: string;
  codePrefix?: string;
  pages?: [string, string][];
  children?: Spec[];
}

/** Screens that only show: their menu codes allow no change and no command. */
const WATCH_ONLY = new Set([
  "home",
  "monitoring.charging",
  "monitoring.chargingPile",
  "monitoring.connector",
  "monitoring.loadMonitoring",
  "carrier.operationLog",
  "finance.expenseRecord",
  "sub.monitoring.charging",
  "sub.monitoring.chargingPile",
  "sub.monitoring.connector",
  "sub.monitoring.loadMonitoring",
  "sub.equipment.station",
  "sub.equipment.point",
  // The sub-operator watches its devices' reservations; reserving and cancelling are the operator's.
  "sub.operation.reservation",
]);

/**
 * Screens that send chargers commands: generic remote commands (remote control, the point
 * page's tools), or their own (a station disabled, load-balancing profiles, local lists,
 * reservations, firmware).
 */
const OPERATES = new Set([
  "equipment.remoteControl",
  "equipment.point",
  "equipment.station",
  "equipment.loadingBalance",
  "users.offlineUserList",
  "operation.reservation",
  "operation.ocppUpdateConfig",
  "operation.diagnosis",
  // Roaming sessions send commands to partners' chargers (docs/rules/ocpi.md "Commands").
  "emsp.session",
]);

const accessOf = (code: string): MenuAccess => (WATCH_ONLY.has(code) ? "watch" : OPERATES.has(code) ? "operate" : "manage");

function build(area: MenuArea, top: MenuTop, spec: Spec, parentKey = "menu"): MenuEntry {
  const titleKey = `${parentKey}.${spec.code.split(".").pop()}`;
  return {
    code: spec.code,
    access: accessOf(spec.code),
    titleKey: spec.children ? `${titleKey}.title` : titleKey,
    area,
    top,
    icon: spec.icon,
    url: spec.url,
    codePrefix: spec.codePrefix,
    pages: spec.pages?.map(([path, key]) => ({ path, titleKey: `page.${key}` })),
    children: spec.children?.map((c) => build(area, top, c, spec.children ? titleKey : parentKey)),
  };
}

const leaf = (code: string, url: string, pages?: [string, string][], codePrefix?: string): Spec => ({
  code,
  url,
  pages,
  codePrefix,
});

const operatorArea: [MenuTop, Spec][] = [
  ["ccms", { code: "home", url: "/home", icon: "home" }],
  [
    "ccms",
    {
      code: "monitoring",
      icon: "activity",
      children: [
        leaf("monitoring.charging", "/systemMonitoring/charging", [
          ["/systemMonitoring/charging/detail/:id", "chargingDetail"],
          // docs/rules/monitoring.md "Suspect sessions"; closing one needs an operating menu besides.
          ["/systemMonitoring/charging/suspect", "suspectSessions"],
        ]),
        leaf("monitoring.chargingPile", "/systemMonitoring/chargingPile"),
        leaf("monitoring.connector", "/systemMonitoring/Connector"),
        leaf("monitoring.alarmRecord", "/systemMonitoring/alarmRecord"),
        leaf("monitoring.loadMonitoring", "/systemMonitoring/loadMonitoring"),
        leaf("monitoring.reliability", "/systemMonitoring/reliability"),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "finance",
      icon: "wallet",
      children: [
        leaf("finance.financialAcount", "/financialManagement/financialAcount"),
        leaf("finance.discountStrategy", "/financialManagement/discountStrategy"),
        leaf("finance.chargeConfiguration", "/financialManagement/chargeConfigurationNew", [
          ["/financialManagement/chargeConfigurationNew/add", "add"],
          ["/financialManagement/chargeConfigurationNew/edit/:id", "edit"],
          ["/financialManagement/chargeConfigurationNew/copy/:id", "copy"],
          ["/financialManagement/chargeConfigurationAddNew", "add"],
          ["/financialManagement/chargeConfigurationEditNew/:id", "edit"],
        ]),
        leaf("finance.billManagement", "/financialManagement/billManagement", [
          ["/financialManagement/billManagement/billDetail/:id", "detail"],
        ]),
        leaf("finance.financialStatements", "/financialManagement/financialStatements"),
        leaf("finance.chargeRecord", "/financialManagement/chargeRecord", [
          ["/financialManagement/chargeRecord/chargeRecordDetail/:id", "detail"],
        ]),
        leaf("finance.expenseRecord", "/financialManagement/expenseRecord"),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "equipment",
      icon: "plug",
      children: [
        leaf("equipment.station", "/equipmentManagement/station", [
          ["/equipmentManagement/station/startPoint", "startPoint"],
          ["/equipmentManagement/station/stationAdd", "add"],
          ["/equipmentManagement/station/stationDetail/:id", "detail"],
        ]),
        leaf("equipment.point", "/equipmentManagement/point", [
          ["/equipmentManagement/point/pointAdd", "add"],
          ["/equipmentManagement/point/pointEdit/:id", "edit"],
          ["/equipmentManagement/point/pointDetail/:id", "detail"],
          ["/equipmentManagement/point/pointConfig/:id", "config"],
        ]),
        leaf("equipment.remoteControl", "/equipmentManagement/remoteControl"),
        leaf("equipment.loadingBalance", "/equipmentManagement/loadingBalance", [
          ["/equipmentManagement/loadingBalance/add", "add"],
          ["/equipmentManagement/loadingBalance/edit/:id", "edit"],
          ["/equipmentManagement/loadingBalance/detail/:id", "detail"],
        ]),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "operation",
      icon: "wrench",
      children: [
        leaf("operation.maintain", "/operationMaintenance/maintain", [
          ["/operationMaintenance/maintain/workOrder/:id", "detail"],
          ["/operationMaintenance/maintain/maintainerAdd", "add"],
          ["/operationMaintenance/maintain/maintainerEdit/:id", "edit"],
        ]),
        leaf("operation.operationFailure", "/operationMaintenance/operationFailure"),
        leaf("operation.historicalAlarmInfo", "/operationMaintenance/historicalAlarmInfo"),
        leaf("operation.ocppUpdateConfig", "/operationMaintenance/ocppUpdateConfig", [
          ["/operationMaintenance/ocppUpdateConfig/add", "add"],
          ["/operationMaintenance/ocppUpdateConfig/edit/:id", "edit"],
          ["/operationMaintenance/ocppUpdateConfig/detail/:id", "detail"],
        ]),
        leaf("operation.reservation", "/operationMaintenance/reservation"),
        leaf("operation.faultCode", "/operationMaintenance/faultCode"),
        leaf("operation.diagnosis", "/operationMaintenance/diagnosis"),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "users",
      icon: "users",
      children: [
        leaf("users.rfCard", "/user/rf-card"),
        leaf("users.userRecharge", "/rechargeManagement/userRecharge"),
        leaf("users.userProfile", "/userManagement/userProfileManagement", [
          ["/userManagement/userProfileManagement/customerAdd", "add"],
          ["/userManagement/userProfileManagement/customerEdit/:id", "edit"],
          ["/userManagement/userProfileManagement/customerDetail/:id", "detail"],
          ["/userManagement/userProfileManagement/deletionRequests", "deletionRequests"],
        ]),
        leaf("users.userGroup", "/userManagement/userGroupManagement", [
          ["/userManagement/userGroupManagement/group", "add"],
          ["/userManagement/userGroupManagement/groupEdit/:id", "edit"],
          ["/userManagement/userGroupManagement/groupDetail/:id", "detail"],
        ]),
        leaf("users.groupList", "/userManagement/groupList"),
        leaf("users.offlineUserList", "/userManagement/offlineUserList", [
          ["/userManagement/offlineUserList/add", "add"],
          ["/userManagement/offlineUserList/edit/:id", "edit"],
          ["/userManagement/offlineUserList/detail/:id", "detail"],
        ]),
        leaf("users.imageManagement", "/imageManagement/imageManagement"),
        leaf("users.vehicle", "/vehicleManage/list", [["/vehicleManage/list/accountBill/:id", "accountBill"]]),
        leaf("users.fileManagement", "/basicInfo/fileManagement"),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "carrier",
      icon: "building",
      children: [
        leaf("carrier.carrierInfo", "/carrierSystem/carrierInfo", [
          ["/carrierSystem/carrierInfo/carrierInfoEdit", "edit"],
          ["/carrierSystem/carrierInfo/authorizationBillingDetail/:id", "detail"],
        ]),
        leaf("carrier.carrierAcount", "/carrierSystem/carrierAcount", [
          ["/carrierSystem/carrierAcount/add", "add"],
          ["/carrierSystem/carrierAcount/edit/:id", "edit"],
          ["/carrierSystem/carrierAcount/detail/:id", "detail"],
        ]),
        leaf("carrier.role", "/carrierSystem/role", [
          ["/carrierSystem/role/add", "add"],
          ["/carrierSystem/role/edit/:id", "edit"],
          ["/carrierSystem/role/detail/:id", "detail"],
        ]),
        leaf("carrier.parameterSettings", "/carrierSystem/parameterSettings"),
        leaf("carrier.paymentChannel", "/carrierSystem/paymentChannel"),
        leaf("carrier.operationLog", "/carrierSystem/operationLog", [["/carrierSystem/operationLog/detail/:id", "detail"]]),
        leaf("carrier.disclaimer", "/carrierSystem/disclaimer"),
        leaf("carrier.privacyPolicy", "/carrierSystem/privacyPolicy"),
        leaf("carrier.feedback", "/carrierSystem/feedback"),
      ],
    },
  ],
  [
    "ocpi",
    {
      code: "emsp",
      icon: "globe",
      children: [
        leaf("emsp.platform", "/emsp/emspPlatform"),
        leaf("emsp.party", "/emsp/emspPartyInfo"),
        leaf("emsp.token", "/emsp/emspToken"),
        leaf("emsp.session", "/emsp/emspSession", [["/emsp/emspSession/commands", "emspCommands"]]),
        leaf("emsp.cdr", "/emsp/emspCdr"),
        leaf("emsp.location", "/emsp/emspLocation"),
        leaf("emsp.tariff", "/emsp/emspTariff"),
      ],
    },
  ],
  [
    "ocpi",
    {
      // What the operator publishes as a CPO (docs/rules/ocpi.md "CPO role").
      code: "cpo",
      icon: "plug",
      children: [
        leaf("cpo.location", "/cpo/cpoLocation"),
        leaf("cpo.tariff", "/cpo/cpoTariff"),
        // Partners' drivers at our chargers (docs/rules/ocpi.md "Partners' drivers at our chargers").
        leaf("cpo.session", "/cpo/cpoSession", [["/cpo/cpoSession/commands", "cpoCommands"]]),
        leaf("cpo.cdr", "/cpo/cpoCdr"),
        leaf("cpo.token", "/cpo/cpoToken"),
      ],
    },
  ],
  [
    "tenant",
    {
      code: "subOperator",
      icon: "network",
      // Sub-operator management is restricted to operators whose code starts with 0PL
      // (docs/rules/access.md "Menus are permissions").
      codePrefix: "0PL",
      children: [
        leaf("subOperator.account", "/SubOperator/operatorAcount", [
          ["/SubOperator/operatorAcount/accountAdd", "add"],
          ["/SubOperator/operatorAcount/accountEdit/:id", "edit"],
          ["/SubOperator/operatorAcount/accountDetail/:id", "detail"],
          ["/SubOperator/operatorAcount/enable/:id", "enable"],
        ]),
        leaf("subOperator.finance", "/SubOperator/operatorFinance"),
        leaf("subOperator.device", "/SubOperator/operatorDevice"),
      ],
    },
  ],
];

/**
 * The sub-operator menu is a reduced subset of the operator's
 * (docs/rules/access.md "Menus are permissions").
 */
const subArea: [MenuTop, Spec][] = [
  [
    "ccms",
    {
      code: "sub.monitoring",
      icon: "activity",
      children: [
        leaf("sub.monitoring.charging", "/suboperators/monitoring/charging", [
          ["/suboperators/monitoring/charging/detail/:id", "chargingDetail"],
        ]),
        leaf("sub.monitoring.chargingPile", "/suboperators/monitoring/chargingPile"),
        leaf("sub.monitoring.connector", "/suboperators/monitoring/connector"),
        leaf("sub.monitoring.alarm", "/suboperators/monitoringAlarm/alarm"),
        leaf("sub.monitoring.loadMonitoring", "/suboperators/monitoring/loadMonitoring"),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "sub.finance",
      icon: "wallet",
      children: [
        leaf("sub.finance.chargeConfiguration", "/suboperators/finance/chargeConfiguration"),
        leaf("sub.finance.bill", "/suboperators/chargingBill/bill", [["/suboperators/chargingBill/billDetails/:id", "detail"]]),
        leaf("sub.finance.chargeRecord", "/suboperators/chargingBill/chargeRecord"),
        // The statements of the sub-operator's own devices (docs/rules/statements.md "Who sees what").
        leaf("sub.finance.financialStatements", "/suboperators/finance/financialStatements"),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "sub.equipment",
      icon: "plug",
      children: [
        leaf("sub.equipment.station", "/suboperators/station", [["/suboperators/station/:id", "detail"]]),
        leaf("sub.equipment.point", "/suboperators/point", [["/suboperators/point/pointDetail/:id", "detail"]]),
      ],
    },
  ],
  [
    "ccms",
    {
      code: "sub.operation",
      icon: "wrench",
      children: [leaf("sub.operation.reservation", "/suboperators/reservation")],
    },
  ],
  [
    "ccms",
    {
      code: "sub.system",
      icon: "building",
      children: [
        leaf("sub.system.info", "/suboperators/subOperatorInfo/subOperatorInfo", [
          ["/suboperators/subOperatorInfo/subOperatorInfoEdit", "edit"],
        ]),
        leaf("sub.system.imageManagement", "/suboperators/imageManagement"),
        leaf("sub.system.parameterSettings", "/suboperators/parameterSettings", undefined, "0PL"),
        leaf("sub.system.feedback", "/suboperators/feedback"),
      ],
    },
  ],
];

/** The platform's own screens: it provisions operators, charges them through price packages, and mails from its own server. */
const platformArea: [MenuTop, Spec][] = [
  [
    "tenant",
    {
      code: "platform",
      icon: "building",
      children: [
        leaf("platform.operator", "/platform/operator", [
          ["/platform/operator/add", "add"],
          ["/platform/operator/edit/:id", "edit"],
          ["/platform/operator/detail/:id", "detail"],
        ]),
        leaf("platform.pricePackage", "/platform/pricePackage", [
          ["/platform/pricePackage/add", "add"],
          ["/platform/pricePackage/detail/:id", "detail"],
        ]),
        leaf("platform.mail", "/platform/mail"),
      ],
    },
  ],
];

export const MENU_CATALOGUE: readonly MenuEntry[] = [
  ...operatorArea.map(([top, spec]) => build("OPERATOR", top, spec)),
  ...subArea.map(([top, spec]) => build("SUB", top, spec, "menu.sub")),
  ...platformArea.map(([top, spec]) => build("PLATFORM", top, spec)),
];

/** Every entry, depth first, with its parent's code. */
export function flattenCatalogue(entries: readonly MenuEntry[] = MENU_CATALOGUE) {
  const out: { entry: MenuEntry; parentCode: string | null; sort: number }[] = [];
  const walk = (list: readonly MenuEntry[], parentCode: string | null) =>
    list.forEach((entry) => {
      out.push({ entry, parentCode, sort: out.length });
      if (entry.children) walk(entry.children, entry.code);
    });
  walk(entries, null);
  return out;
}

/** Pages that every logged-in user may open (docs/rules/console.md "Route guard"). */
export const ALWAYS_ALLOWED = ["/404", "/rePassword", "/suboperators/rePassword", "/station/cashier/:id", "/disclaimer/mobile"];

/** Public pages that need no login at all (docs/rules/console.md "Route guard"). */
export const PUBLIC_PAGES = [
  "/privacy/mobile",
  "/app/delete/account",
  "/valina-bill/:code",
  "/tourist/invoices/:id",
  "/tourist/chargingRecordDetails/:id",
];
