import { carrierInfoInput } from "../../../domain/schemas/platform";
import { carrierInfo, updateCarrierInfo } from "../../services/platform/carrier-info";
import { resource } from "../resource";

/** Carrier system › Operator info (docs/rules/platform.md "Operator info"). */
const info = resource("Operator info", "/user-service/operator/info");

export const routes = [
  info.get("", "The operator's own record (carrierInfo)", carrierInfo),
  info.put("", "The operator edits its own contact, accounts, branding and EIPA access (carrierInfoEdit)", updateCarrierInfo, carrierInfoInput),
];
