import { useLocation } from "react-router";

/**
 * The monitoring screens serve the operator area and the sub-operator area with one module each
 * (docs/rules/monitoring.md "Screens and menus"); this says which one a page is in, for its title and its links.
 */
export function useArea() {
  const { pathname } = useLocation();
  const sub = pathname.startsWith("/suboperators/");
  return {
    sub,
    chargingList: sub ? "/suboperators/monitoring/charging" : "/systemMonitoring/charging",
    chargingDetail: (id: number) => (sub ? `/suboperators/monitoring/charging/detail/${id}` : `/systemMonitoring/charging/detail/${id}`),
    menuKey: (operatorKey: string, subKey: string) => (sub ? subKey : operatorKey),
  };
}
