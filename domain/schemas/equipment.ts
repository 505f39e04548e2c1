import { z } from "zod";
import { pageQuery, recordStatus } from "./account-service";

/** SPEC.md §3 connector standards, each with an image in the console. */
export const CONNECTOR_STANDARDS = ["SAE1", "SAE2", "IIS", "IEC1", "IEC2", "IEC3", "GBT1", "GBT2", "GBT3"] as const;
export const connectorStandard = z.enum(CONNECTOR_STANDARDS, { error: "validation.connectorStandard" });
export const pointType = z.enum(["DC", "AC", "MIXED"], { error: "validation.pointType" });

/** SPEC.md §5: power, numbers only, at most two decimals (kW). */
export const powerKw = z.coerce
  .number({ error: "validation.power" })
  .positive({ error: "validation.power" })
  .max(10_000, { error: "validation.power" })
  .refine((v) => Math.round(v * 100) === v * 100, { error: "validation.powerDecimals" });

/** The chargeBoxId: it travels in the OCPP URL, so only URL-safe characters. */
export const serialNumber = z
  .string({ error: "validation.serialRequired" })
  .trim()
  .min(1, { error: "validation.serialRequired" })
  .max(48, { error: "validation.serialRule" })
  .regex(/^[A-Za-z0-9._-]+$/, { error: "validation.serialRule" });

export const connectorInput = z.object({
  connectorId: z.coerce.number().int().min(1).max(99),
  standard: connectorStandard,
  power: powerKw,
  chargeSpeed: z.enum(["QUICK", "SLOW"], { error: "validation.chargeSpeed" }),
  name: z.string().trim().max(64).optional(),
});

export const pointInput = z
  .object({
    stationId: z.coerce.number({ error: "validation.stationRequired" }).int().positive({ error: "validation.stationRequired" }),
    name: z.string({ error: "validation.required" }).trim().min(1, { error: "validation.required" }).max(64),
    serialNumber,
    pointNo: z.string({ error: "validation.required" }).trim().min(1, { error: "validation.required" }).max(32),
    type: pointType,
    ratedPower: powerKw,
    // SPEC.md §5: connector count is an integer of at most two digits.
    connectorCount: z.coerce.number({ error: "validation.connectorCount" }).int({ error: "validation.connectorCount" }).min(1, { error: "validation.connectorCount" }).max(99, { error: "validation.connectorCount" }),
    privateType: z.enum(["Public", "Private", "PrivateHidden"], { error: "validation.privateType" }).default("Public"),
    connectors: z.array(connectorInput).max(99).optional(),
  })
  .refine((p) => !p.connectors || p.connectors.length === p.connectorCount, { error: "validation.connectorList", path: ["connectors"] });
export type PointInput = z.infer<typeof pointInput>;

export const pointStatusInput = z.object({ status: recordStatus });

export const stationListQuery = pageQuery.extend({
  name: z.string().trim().max(64).optional(),
  status: recordStatus.optional(),
});
