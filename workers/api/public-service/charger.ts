import { z } from "zod";
import { publicCharger } from "../../services/public-charger/charger";
import { resource } from "../resource";

/**
 * The public charger JSON behind the page a point's QR code opens (docs/rules/public-charger.md
 * "The charger's JSON"): no login; an unknown serial number is 404 with a localized message.
 */
const charger = resource("Public service: chargers", "/public-service/charger", z.object({ serialNumber: z.string() }));

export const routes = [
  charger.detail("A charger's connectors, live statuses and the price now and for the next hours (prices as decimal texts in major units, VAT included)", publicCharger),
];
