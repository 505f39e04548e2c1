import { z } from "zod";
import { publicCharger } from "../../services/public-charger/charger";
import { route } from "../app";

/**
 * The public charger JSON behind the page a point's QR code opens (docs/rules/public-charger.md
 * "The charger's JSON"): no login; an unknown serial number is 404 with a localized message.
 */
const tag = "Public service: chargers";

export const routes = [
  route(
    {
      method: "get",
      path: "/public-service/charger/{serialNumber}",
      summary: "A charger's connectors, live statuses and the price now and for the next hours (prices as decimal texts in major units, VAT included)",
      tag,
      verb: publicCharger,
      params: z.object({ serialNumber: z.string() }),
    },
    (ctx, { params }) => publicCharger(ctx, params.serialNumber),
  ),
];
