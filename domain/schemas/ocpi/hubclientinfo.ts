import { z } from "zod";
import { countryCode, dateTime, partyId } from "./common";
import { ROLES } from "./credentials";

/** ClientInfo: a party behind a hub and its connection state (OCPI 2.2.1 §17.3.1 HubClientInfo). */
export const CONNECTION_STATUSES = ["CONNECTED", "OFFLINE", "PLANNED", "SUSPENDED"] as const;

export const clientInfo = z.looseObject({
  party_id: partyId,
  country_code: countryCode,
  role: z.enum(ROLES),
  status: z.enum(CONNECTION_STATUSES),
  last_updated: dateTime,
});
export type ClientInfo = z.infer<typeof clientInfo>;
