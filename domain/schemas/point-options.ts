import { z } from "zod";
import { wholeNumber } from "./numbers";

/** How many points the picker lists unless told: enough to choose from, few enough to read. */
export const POINT_OPTIONS_DEFAULT_LIMIT = 20;
/** At most one page of the console's lists (docs/rules/lists.md "Pickers"). */
export const POINT_OPTIONS_MAX_LIMIT = 100;

/**
 * GET /station-service/point/options: what was typed (a serial number's or a name's start or any
 * part of them) and how many matches to answer.
 */
export const pointOptionsQuery = z.object({
  keyword: z.string().trim().max(64, { error: "pickers.validation.keyword" }).optional(),
  limit: wholeNumber("pickers.validation.limit", (n) => n.min(1).max(POINT_OPTIONS_MAX_LIMIT)).default(POINT_OPTIONS_DEFAULT_LIMIT),
});
export type PointOptionsQuery = z.input<typeof pointOptionsQuery>;

/** One point the picker offers. */
export interface PointOption {
  id: number;
  serialNumber: string;
  name: string;
  stationName: string | null;
}
