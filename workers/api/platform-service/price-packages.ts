import { billFlagsInput, billListQuery, packageListQuery, pricePackageInput, temporaryAcceptInput, temporaryOfferQuery } from "../../../domain/schemas/platform";
import {
  acceptTemporary,
  createPackage,
  getPackage,
  listPackageBills,
  listPackages,
  ownPackageBills,
  ownPackages,
  setBillFlags,
  temporaryOffer,
  voidPackage,
} from "../../services/platform/price-packages";
import { idParam, route } from "../app";

/**
 * Price packages (docs/rules/platform.md "Price packages"). Fixed paths are declared before
 * `{id}` so that `mine` and `temporary` never read as an id.
 */
const tag = "Platform service: price packages";

export const routes = [
  route(
    { method: "get", path: "/platform-service/price-package/mine", summary: "The operator's own packages (Operator info)", tag, verb: ownPackages, query: packageListQuery },
    (ctx, { query }) => ownPackages(ctx, query),
  ),
  route(
    {
      method: "get",
      path: "/platform-service/price-package/mine/{id}/bill",
      summary: "One of the operator's own packages with its daily bills (authorizationBillingDetail)",
      tag,
      verb: ownPackageBills,
      params: idParam,
      query: billListQuery,
    },
    (ctx, { params, query }) => ownPackageBills(ctx, params.id, query),
  ),
  route(
    {
      method: "get",
      path: "/platform-service/price-package/temporary/offer",
      summary: "The temporary package, with its price, for connectors beyond the quota",
      tag,
      verb: temporaryOffer,
      query: temporaryOfferQuery,
    },
    (ctx, { query }) => temporaryOffer(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/platform-service/price-package/temporary",
      summary: "Accept the temporary package at the prices shown (409 with the new offer when they changed)",
      tag,
      verb: acceptTemporary,
      body: temporaryAcceptInput,
    },
    (ctx, { body }) => acceptTemporary(ctx, body),
  ),
  route(
    {
      method: "put",
      path: "/platform-service/price-package/bill/{id}",
      summary: "Mark a package bill recorded and/or settled",
      tag,
      verb: setBillFlags,
      params: idParam,
      body: billFlagsInput,
    },
    (ctx, { params, body }) => setBillFlags(ctx, params.id, body),
  ),
  route(
    { method: "get", path: "/platform-service/price-package", summary: "Every operator's packages, paged; filter by operator code, type and state", tag, verb: listPackages, query: packageListQuery },
    (ctx, { query }) => listPackages(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/platform-service/price-package",
      summary: "Create a package for an operator; its state follows its dates and the operator's quota follows",
      tag,
      verb: createPackage,
      body: pricePackageInput,
    },
    (ctx, { body }) => createPackage(ctx, body),
  ),
  route({ method: "get", path: "/platform-service/price-package/{id}", summary: "One package", tag, verb: getPackage, params: idParam }, (ctx, { params }) =>
    getPackage(ctx, params.id),
  ),
  route(
    { method: "put", path: "/platform-service/price-package/{id}/void", summary: "Void a package (it authorises and bills nothing more)", tag, verb: voidPackage, params: idParam },
    (ctx, { params }) => voidPackage(ctx, params.id),
  ),
  route(
    {
      method: "get",
      path: "/platform-service/price-package/{id}/bill",
      summary: "A package's daily bills, newest first; filter by recorded and settled",
      tag,
      verb: listPackageBills,
      params: idParam,
      query: billListQuery,
    },
    (ctx, { params, query }) => listPackageBills(ctx, params.id, query),
  ),
];
