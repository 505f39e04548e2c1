import { z } from "zod";
import { pageQuery } from "./account-service";

/** Queries and bodies of the content screens: operation log, disclaimer, privacy policy, feedback. */

export const OPERATION_TYPES = ["CREATE", "UPDATE", "DELETE", "LOGIN", "LOGOUT"] as const;

const instant = z.iso.datetime({ offset: true, error: "content.validation.dateTime" });
const text64 = z.string().trim().max(64, { error: "content.validation.filterLength" }).optional();

/** The operation log's filters (docs/rules/content.md "Operation log"). */
export const operationLogQuery = pageQuery
  .extend({
    module: text64,
    account: text64,
    tableName: text64,
    operationType: z.enum(OPERATION_TYPES, { error: "content.validation.operationType" }).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  // The start time must not be later than the end time.
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: "content.validation.timeRange", path: ["to"] });
