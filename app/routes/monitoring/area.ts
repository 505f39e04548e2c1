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
    /** The suspect sessions (docs/rules/monitoring.md "Suspect sessions"): the operator area's only. */
    suspectSessions: sub ? null : "/systemMonitoring/charging/suspect",
    /** A monitoring row's charger: its point page in the same area (docs/rules/monitoring.md "Links to the charger"). */
    pointPage: (pointId: number) => (sub ? `/suboperators/point/pointDetail/${pointId}` : `/equipmentManagement/point/pointDetail/${pointId}`),
    /** A monitoring row's connector: the live connector list narrowed to its charger. */
    connectorList: (serialNumber: string) =>
      `${sub ? "/suboperators/monitoring/connector" : "/systemMonitoring/Connector"}?serialNumber=${encodeURIComponent(serialNumber)}`,
    menuKey: (operatorKey: string, subKey: string) => (sub ? subKey : operatorKey),
  };
}
