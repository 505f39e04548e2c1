import { billFlagsInput, billListQuery, packageListQuery, pricePackageInput, temporaryAcceptInput, temporaryOfferQuery } from "../../../domain/schemas/platform";
import * as packages from "../../services/platform/price-packages";
import { resource } from "../resource";

/**
 * Price packages (docs/rules/platform.md "Price packages"). Fixed paths are declared before
 * `{id}` so that `mine` and `temporary` never read as an id.
 */
const tag = "Platform service: price packages";
const myPackages = resource(tag, "/platform-service/price-package/mine");
const pricePackage = resource(tag, "/platform-service/price-package");

export const routes = [
  myPackages.list("The operator's own packages (Operator info)", packages.ownPackages, packageListQuery),
  myPackages.get("/{id}/bill", "One of the operator's own packages with its daily bills (authorizationBillingDetail)", packages.ownPackageBills, billListQuery),
  pricePackage.get("/temporary/offer", "The temporary package, with its price, for connectors beyond the quota", packages.temporaryOffer, temporaryOfferQuery),
  pricePackage.post("/temporary", "Accept the temporary package at the prices shown (409 with the new offer when they changed)", packages.acceptTemporary, temporaryAcceptInput),
  pricePackage.put("/bill/{id}", "Mark a package bill recorded and/or settled", packages.setBillFlags, billFlagsInput),
  pricePackage.list("Every operator's packages, paged; filter by operator code, type and state", packages.listPackages, packageListQuery),
  pricePackage.create("Create a package for an operator; its state follows its dates and the operator's quota follows", packages.createPackage, pricePackageInput),
  pricePackage.detail("One package", packages.getPackage),
  pricePackage.put("/{id}/void", "Void a package (it authorises and bills nothing more)", packages.voidPackage),
  pricePackage.get("/{id}/bill", "A package's daily bills, newest first; filter by recorded and settled", packages.listPackageBills, billListQuery),
];
