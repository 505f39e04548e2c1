import type { PointProtocol } from "~/components/protocol-badge";
import { PointOperations } from "~/components/operations/point-operations";
import { commandProtocol } from "../../../../domain/schemas/remote-control";

/**
 * The Operations tab (docs/rules/equipment.md "Point pages"): every action the central system may
 * send the point, in its protocol (the version its charger is connected with, else its setting;
 * an AUTO point not connected is offered 1.6's, with a note), each as a form built from the
 * action's schema, the answer beside the request, the call in the OCPP log tab.
 */
export function OperationsTab({ point, online }: { point: PointProtocol & { id: number }; online: boolean }) {
  const protocol = commandProtocol(point.ocppVersion, online ? point.connectedVersion : null);
  // A new protocol (the charger connected in the other one) is a new list of actions: a fresh form.
  return <PointOperations key={protocol ?? "assumed"} pointId={point.id} protocol={protocol ?? "1.6"} assumed={!protocol} online={online} logHref="?tab=log" />;
}
