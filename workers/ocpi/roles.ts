import type { Context, Hono, Next } from "hono";
import { eq } from "drizzle-orm";
import { ocpiPlatforms } from "../../db/schema";
import { mayCall, type OurSide, type PartnerRole } from "../../domain/ocpi/roles";
import { OcpiError } from "../../domain/ocpi/wire";
import { OCPI_STATUS } from "../../domain/schemas/ocpi/common";
import type { ModuleId } from "../../domain/schemas/ocpi/versions";
import { settingsOf } from "../../tenants/resolve";
import { owned } from "../../tenants/scope";
import type { Ctx, PartnerCtx } from "../services/context";
import type { OcpiFetch } from "../services/ocpi/client";
import { VERSION_PATH } from "../services/ocpi/identity";
import type { OcpiEnv } from "./reply";

/**
 * Roles on the `/ocpi/` wire (docs/rules/ocpi.md "CPO role"; docs/decisions/0082-ocpi-role-gate.md).
 *
 * How a module uses this:
 * - Our eMSP modules live at `/ocpi/2.2.1/<module>`, our CPO modules at `/ocpi/2.2.1/cpo/<module>`.
 *   `sideGate` (mounted once, in `workers/ocpi/app.ts`) decides from the path which side a call
 *   reaches and refuses, before any body is read, a partner whose role may not call that side (an
 *   eMSP partner never reaches our eMSP receivers, a CPO partner never our CPO senders, a hub
 *   both) and any call to a side the operator does not take (`ocpi.roles`). A module needs no
 *   check of its own.
 * - A CPO module is an `OcpiModule` in `CPO_MODULES` (`workers/ocpi/cpo/index.ts`): its
 *   identifier and role as version details list them, and `mount(app, { base, send })`, which
 *   adds its routes under `base` (= `/ocpi/2.2.1/cpo/<identifier>`). Add one by a line there.
 * - Inside a route, `c.var.partner` is the caller (a registered partner: token B), `reply`,
 *   `pagedReply` and `ocpiBody` from `workers/ocpi/reply.ts` answer and read; `partnerRoleOf(ctx)`
 *   gives the caller's role when a verb needs it (e.g. a hub relaying for several parties).
 * - Pushing to partners' receivers as a CPO: only registered platforms of role EMSP or HUB, of an
 *   operator whose `ocpi.roles` include CPO (`workers/services/ocpi/cpo-push.ts` `receiversOf`).
 * - Console: the `cpo` menu group (`tenants/menu-catalogue.ts`) takes more leaves, each with its
 *   screen module in `app/routes/cpo/route-map.ts`.
 */

/** A module of one of our sides: listed in our version details and mounted on the wire. */
export interface OcpiModule {
  identifier: ModuleId;
  role: "SENDER" | "RECEIVER";
  mount(app: Hono<OcpiEnv>, deps: { base: string; send: OcpiFetch }): void;
}

/** Where our CPO modules live: apart from the eMSP ones, as one version lists both (OCPI 2.2.1 §6.2.2). */
export const CPO_PATH = `${VERSION_PATH}/cpo`;
export const cpoModulePath = (identifier: ModuleId) => `${CPO_PATH}/${identifier}`;

/** The side of ours a path reaches: none for versions and credentials, which every role uses. */
export function sideOfPath(path: string): OurSide | null {
  if (!path.startsWith(`${VERSION_PATH}/`) || path === `${VERSION_PATH}/credentials`) return null;
  return path === CPO_PATH || path.startsWith(`${CPO_PATH}/`) ? "CPO" : "EMSP";
}

/** The role the calling partner's platform was entered with (and its credentials named). */
export async function partnerRoleOf(ctx: PartnerCtx): Promise<PartnerRole> {
  const [row] = await ctx.db.select({ role: ocpiPlatforms.role }).from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, ctx.actor.platformId))).limit(1);
  return row?.role ?? "CPO";
}

/** The roles the operator takes on the wire (`ocpi.roles`, default eMSP only). */
export async function operatorRolesOf(ctx: Ctx): Promise<OurSide[]> {
  return (await settingsOf(ctx.db, ctx.operator.id)).parameters.ocpi.roles;
}

/** The sides a partner may call: those the operator takes and the partner's role may reach. */
export async function sidesOf(ctx: PartnerCtx): Promise<OurSide[]> {
  const [role, sides] = await Promise.all([partnerRoleOf(ctx), operatorRolesOf(ctx)]);
  return sides.filter((side) => mayCall(role, side));
}

/**
 * Refuses a partner whose role may not call `side`: 403 with 2000. A side the operator does not
 * take is not there at all: 404, as an unknown endpoint.
 */
export async function requirePartnerRole(ctx: PartnerCtx, side: OurSide) {
  const [role, sides] = await Promise.all([partnerRoleOf(ctx), operatorRolesOf(ctx)]);
  if (!sides.includes(side)) throw new OcpiError(404, OCPI_STATUS.clientError, "No such OCPI endpoint");
  if (!mayCall(role, side)) throw new OcpiError(403, OCPI_STATUS.clientError, `A partner of role ${role} may not call our ${side} modules`);
}

/** The one gate of the wire: mounted on `/ocpi/2.2.1/*` after the registered-caller check. */
export async function sideGate(c: Context<OcpiEnv>, next: Next) {
  const side = sideOfPath(c.req.path);
  if (side) await requirePartnerRole(c.var.partner, side);
  await next();
}
