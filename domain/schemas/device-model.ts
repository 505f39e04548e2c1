import { z } from "zod";
import { pageQuery } from "./account-service";
import { wholeNumber } from "./numbers";

/**
 * The device model of an OCPP 2.0.1 point on its configuration tab (OCPP 2.0.1 Part 2 B05–B07;
 * docs/rules/equipment.md "Point pages"): the stored model, paged and searched, a new report
 * asked of the charger, and variables read or set live. Names follow 2.0.1's (component and
 * variable names and instances are at most 50 characters, a value set at most 1000).
 */

/** The reports the tab asks for: every variable, or only those the CSMS may set. */
export const REPORT_BASES = ["FullInventory", "ConfigurationInventory"] as const;
export const ATTRIBUTE_TYPES = ["Actual", "Target", "MinSet", "MaxSet"] as const;

const NAME_ERROR = "points.validation.variableName";
const name = z.string({ error: NAME_ERROR }).trim().min(1, { error: NAME_ERROR }).max(50, { error: NAME_ERROR });
const evseNumber = (n: z.ZodNumber) => n.min(1, { error: "points.validation.evseNumber" }).max(999, { error: "points.validation.evseNumber" });

const component = z.object({
  name,
  instance: name.optional(),
  evse: z
    .object({ id: wholeNumber("points.validation.evseNumber", evseNumber), connectorId: wholeNumber("points.validation.evseNumber", evseNumber).optional() }, { error: "points.validation.evseNumber" })
    .optional(),
}, { error: NAME_ERROR });
const variable = z.object({ name, instance: name.optional() }, { error: NAME_ERROR });
const attributeType = z.enum(ATTRIBUTE_TYPES, { error: "points.validation.attributeType" }).optional();

const VARIABLES_ERROR = "points.validation.variables";
const listOf = <T extends z.ZodType>(item: T) => z.array(item, { error: VARIABLES_ERROR }).min(1, { error: VARIABLES_ERROR }).max(50, { error: VARIABLES_ERROR });

/** GET /station-service/point/{id}/deviceModel: `search` keeps the variables whose component or variable name contains it. */
export const deviceModelQuery = pageQuery.extend({
  search: z.string().trim().max(50, { error: "points.validation.tooLong" }).optional(),
});

/** POST /station-service/point/{id}/deviceModel/report (B07 GetBaseReport). */
export const deviceModelReportInput = z.object({
  reportBase: z.enum(REPORT_BASES, { error: "points.validation.reportBase" }).default("FullInventory"),
});

/** POST /station-service/point/{id}/variables/get (B06 GetVariables): 1 to 50 variables. */
export const getVariablesInput = z.object({
  variables: listOf(z.object({ component: component, variable, attributeType }, { error: VARIABLES_ERROR })),
});
export type GetVariablesInput = z.infer<typeof getVariablesInput>;

/** POST /station-service/point/{id}/variables/set (B05 SetVariables): 1 to 50 values. */
export const setVariablesInput = z.object({
  variables: listOf(
    z.object(
      {
        component: component,
        variable,
        attributeType,
        value: z.string({ error: "points.validation.variableValue" }).max(1000, { error: "points.validation.variableValue" }),
      },
      { error: VARIABLES_ERROR },
    ),
  ),
});
export type SetVariablesInput = z.infer<typeof setVariablesInput>;
