import { settingsOf } from "../../../tenants/resolve";
import type { Ctx } from "../../../workers/services/context";
import type { ChargerSetup } from "./point-detail/charger-key-dialog";

/** What the key dialog shows besides the key: the operator's code in the endpoint, and its heartbeat interval. */
export async function chargerSetup(ctx: Ctx): Promise<ChargerSetup> {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  return { operatorCode: ctx.operator.code, heartbeatInterval: settings.heartbeatIntervalS };
}
