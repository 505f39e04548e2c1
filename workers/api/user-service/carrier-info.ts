import { carrierInfoInput } from "../../../domain/schemas/platform";
import { carrierInfo, updateCarrierInfo } from "../../services/platform/carrier-info";
import { route } from "../app";

/** Carrier system › Operator info (docs/rules/platform.md "Operator info"). */
const tag = "Operator info";

export const routes = [
  route({ method: "get", path: "/user-service/operator/info", summary: "The operator's own record (carrierInfo)", tag, verb: carrierInfo }, (ctx) => carrierInfo(ctx)),
  route(
    {
      method: "put",
      path: "/user-service/operator/info",
      summary: "The operator edits its own contact, accounts, branding and EIPA access (carrierInfoEdit)",
      tag,
      verb: updateCarrierInfo,
      body: carrierInfoInput,
    },
    (ctx, { body }) => updateCarrierInfo(ctx, body),
  ),
];
