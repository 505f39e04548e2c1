import { reportError } from "../../http/report-error";
import type { Ctx } from "../context";
import { handlerOf } from "../maintenance/maintainers";
import { sendMail } from "./mail";

/**
 * The mail a maintainer gets when a work order is given to them, by hand, by the assignment rule or
 * by an alarm (docs/rules/maintenance.md "Work orders"): only when their account has an e-mail and
 * the operator a mail server, through the outbox queue. The order exists either way, so a mail that
 * cannot be queued is reported, never thrown. Answers whether it was queued.
 */
export async function mailWorkOrderAssignment(ctx: Ctx, order: { id: number; maintainerId: number | null; serialNumber: string; faultCode: string }): Promise<boolean> {
  if (order.maintainerId === null) return false;
  try {
    const handler = await handlerOf(ctx, order.maintainerId);
    if (!handler?.email) return false;
    const params = { orderId: String(order.id), point: order.serialNumber, fault: order.faultCode };
    return (await sendMail(ctx, { to: handler.email, template: "workOrderAssigned", params })).queued;
  } catch (error) {
    reportError("mail", error, { template: "workOrderAssigned", workOrderId: order.id });
    return false;
  }
}
