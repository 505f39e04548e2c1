import { operatorRemoteTag } from "../../../domain/remote-start-tag";
import { settingsOf } from "../../../tenants/resolve";
import { verb } from "../verb";
import { CHARGE_RECORD_MENUS } from "./charge-records";

/**
 * The operator's remote-start tag, for the screens that say which sessions it started and that
 * nobody pays for them (docs/rules/console.md "Names"): readable by whoever reads the sessions.
 */
export const remoteStartTag = verb({ menu: [...CHARGE_RECORD_MENUS, "sub.monitoring.charging"] }, async (ctx) =>
  operatorRemoteTag(ctx.operator.id, (await settingsOf(ctx.db, ctx.operator.id)).remoteIdTag),
);
