import type { CurrencyFormat, DecimalSeparator, MoneyStyle } from "../../../domain/format";
import type { Language } from "../../../domain/languages";
import type { ConnectorStandard } from "../../../domain/schemas/equipment";
import type { MenuEntry } from "../../../tenants/menu-catalogue";
import type { MapView } from "../format";

/** What the console layout needs from the layout route's loader. */
export interface ShellData {
  user: {
    account: string;
    name: string;
    type: "SUPER" | "NORMAL";
    /** 1 for sub-operators (docs/rules/sessions.md "Login"). */
    sub: 0 | 1;
    timeZone: string;
    operatorCode: string;
  };
  operator: { code: string; name: string; logoUrl: string | null };
  /** The user's menu tree, already filtered by permission. */
  menu: MenuEntry[];
  currency: CurrencyFormat;
  /** The operator's decimal separator; null writes numbers the console language's way. */
  decimalSeparator: DecimalSeparator | null;
  /** Decimals money is shown with, and whether zero costs are hidden (docs/rules/settings.md "Formatting"). */
  money: Required<MoneyStyle>;
  /** Where a map opens when it has nothing to show (docs/rules/settings.md "Map"). */
  mapView: MapView;
  /** Every connector standard, in the operator's order (docs/rules/settings.md "Display switches"). */
  connectorTypeOrder: ConnectorStandard[];
  /** Where points' QR codes lead: the operator's branded domain, else the console's address (docs/rules/public-charger.md "QR codes"). */
  chargePageOrigin: string;
  lang: Language;
}
