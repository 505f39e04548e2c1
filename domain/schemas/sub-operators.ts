import { z } from "zod";
import { pageQuery } from "./account-service";
import { pathId, recordId } from "./numbers";

/** Sub-operator management: the devices a parent gives its sub-operators, and what they see. */

export const MAX_STATIONS = 500;
export const MAX_POINTS = 2000;

export const subOperatorParam = z.object({ subOperatorId: pathId });

export const subOperatorListQuery = pageQuery.extend({ name: z.string().trim().max(64).optional() });

export const candidateQuery = pageQuery.extend({
  kind: z.enum(["station", "point"], { error: "monitoring.validation.deviceKind" }),
  name: z.string().trim().max(64).optional(),
  /** Only the devices already assigned (true) or not assigned (false). */
  assigned: z.enum(["true", "false"], { error: "monitoring.validation.assigned" }).optional(),
});

const ids = (max: number, key: string) =>
  z
    .array(z.number({ error: "monitoring.validation.deviceIds" }).int({ error: "monitoring.validation.deviceIds" }).positive({ error: "monitoring.validation.deviceIds" }), {
      error: "monitoring.validation.deviceIds",
    })
    .max(max, { error: key })
    .transform((list) => [...new Set(list)]);

/**
 * PUT /user-service/sub-operator/{id}/devices replaces every assignment, so both lists are
 * required: an empty list is said, never assumed from a missing field.
 */
export const assignmentInput = z.object({
  stationIds: ids(MAX_STATIONS, "monitoring.validation.tooManyStations"),
  pointIds: ids(MAX_POINTS, "monitoring.validation.tooManyPoints"),
});

export const subStationQuery = pageQuery.extend({ name: z.string().trim().max(64).optional() });
export const subPointQuery = pageQuery.extend({
  serialNumber: z.string().trim().max(64).optional(),
  stationId: recordId("monitoring.validation.stationId").optional(),
});
export type SubPointQuery = z.infer<typeof subPointQuery>;
