import { useRouteLoaderData } from "react-router";
import type { loader as layoutLoader } from "~/routes/console/layout";

/** A point's public page, the address its QR code holds (docs/rules/public-charger.md "QR codes"). */
export function chargePageUrl(origin: string, serialNumber: string): string {
  return `${origin.replace(/\/+$/, "")}/charge/${encodeURIComponent(serialNumber)}`;
}

/** The QR address of a point in the console: on the operator's branded domain when it has one (the console shell says where). */
export function useChargePageUrl(serialNumber: string): string {
  const origin = useRouteLoaderData<typeof layoutLoader>("routes/console/layout")?.chargePageOrigin ?? "";
  return chargePageUrl(origin, serialNumber);
}
