import { catalogueKeyOf, menuCodes } from "../../../tenants/permissions";
import { geocoderOf, mainCurrencyOf, orderedStandards } from "../../../domain/schemas/settings";
import { tileSourceOf } from "../../../domain/map-tiles";
import { settingsOf } from "../../../tenants/resolve";
import { chargePageOrigin } from "../public-charger/page-origin";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/** The user info the console keeps (account, type, sub flag, menu codes), with the names it gives. */
export async function userInfo(ctx: UserCtx) {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const { menuCodeList, menuCodeAllList } = menuCodes({
    ...catalogueKeyOf(ctx.operator),
    adminType: ctx.actor.adminType,
    role: ctx.actor.role,
  });
  return {
    id: ctx.actor.accountId,
    account: ctx.actor.username,
    name: ctx.actor.name,
    email: ctx.actor.email,
    type: ctx.actor.adminType,
    roleType: ctx.actor.role?.type ?? null,
    sub: ctx.actor.sub,
    timeZone: settings.timeZone,
    operatorCode: ctx.operator.code,
    operatorName: ctx.operator.name,
    mustChangePassword: ctx.actor.mustChangePassword,
    menuCodeList,
    menuCodeAllList,
  };
}

/** GET /user-service/person/operator: the logged-in account, also before its password change. */
export const personInfo = verb({ menu: "session", beforePasswordChange: true }, async (ctx) => userInfo(ctx));

/**
 * What the console's shell shows of the logged-in user and its operator: the account, the
 * operator's branding, the menu tree and the formats (currency, time zone, decimal separator,
 * decimals, hidden zero costs) and the default map view.
 */
export const consoleShell = verb({ menu: "session", beforePasswordChange: true }, async (ctx) => {
  const [settings, qrOrigin] = await Promise.all([settingsOf(ctx.db, ctx.operator.id), chargePageOrigin(ctx)]);
  const { parameters } = settings;
  return {
    user: {
      account: ctx.actor.username,
      name: ctx.actor.name,
      type: ctx.actor.adminType,
      sub: ctx.actor.sub,
      timeZone: settings.timeZone,
      operatorCode: ctx.operator.code,
    },
    operator: {
      code: ctx.operator.code,
      name: ctx.operator.name,
      logoUrl: ctx.operator.logoKey ? `/user-service/file/show?key=${encodeURIComponent(ctx.operator.logoKey)}` : null,
    },
    menu: ctx.actor.menu,
    currency: mainCurrencyOf(parameters),
    decimalSeparator: parameters.decimalSeparator,
    money: { decimals: parameters.decimals, hideZeroCosts: parameters.hideZeroCosts },
    // The maps' tiles, and whether an address can be looked up (docs/rules/settings.md "Map").
    mapView: {
      lat: Number(parameters.map.centre.lat),
      lng: Number(parameters.map.centre.lng),
      zoom: parameters.map.zoom,
      tiles: tileSourceOf(parameters.map),
      geocoder: geocoderOf(parameters) !== null,
    },
    // Lists and forms offer connector standards in the operator's order (docs/rules/settings.md "Display switches").
    connectorTypeOrder: orderedStandards(parameters.connectorTypeOrder),
    // Points' QR codes open their public page there (docs/rules/public-charger.md "QR codes").
    chargePageOrigin: qrOrigin,
  };
});
