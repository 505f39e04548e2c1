import { deviceOwner, visiblePointIds } from "../../../tenants/scope";
import type { LiveScope } from "../../live/tenant-hub";
import { LIVE_MENUS } from "../../../tenants/permissions";
import { verb } from "../verb";

/**
 * Who may listen on `/live`: what the screens that listen live require (the monitoring screens,
 * the home dashboard, and the equipment screens that show live state), never before the initial
 * password is changed (docs/rules/access.md). Listening changes nothing, but a cookie-borne
 * upgrade must still come from the console's own origin (`/live` checks it before).
 *
 * Answers what the socket may hear: the hub of the devices' owner (a sub-operator listens to its
 * parent's), limited to the points it sees as of the moment the socket opens.
 */
export const liveScope = verb(
  {
    menu: LIVE_MENUS,
  },
  async (ctx): Promise<LiveScope> => ({ operatorId: deviceOwner(ctx), accountId: ctx.actor.accountId, pointIds: await visiblePointIds(ctx) }),
);
