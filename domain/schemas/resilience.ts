import { z } from "zod";
import { pageQuery } from "./account-service";
import { recordId, wholeNumber } from "./numbers";

/**
 * Suspect sessions (docs/rules/monitoring.md "Suspect sessions"): transactions without a stop
 * that look stuck, listed by `GET /station-service/charge/suspect` and closed by the operator with
 * a meter reading. Messages are catalogue keys (domain/i18n/locales/<lang>/resilience.json).
 */

/**
 * Why a transaction is listed: no stop past the operator's threshold, its connector reported free
 * (Available, or another transaction on it), or its meter flagged (backwards, or beyond the
 * connector's power).
 */
export const SUSPECT_REASONS = ["NO_STOP", "CONNECTOR_FREE", "METER"] as const;
export type SuspectReason = (typeof SUSPECT_REASONS)[number];

export const suspectListQuery = pageQuery.extend({
  reason: z.enum(SUSPECT_REASONS, { error: "resilience.validation.reason" }).optional(),
  serialNumber: z.string().trim().max(64).optional(),
});

export const suspectParam = z.object({ transactionId: recordId("resilience.validation.transactionId") });

/** The register reading a suspect session is closed with, in Wh (at least its start's: checked by the verb). */
export const closeSuspectInput = z.strictObject(
  {
    meterStop: wholeNumber("resilience.validation.meterStop", (n) => n.min(0, { error: "resilience.validation.meterStop" }).max(2_147_483_647, { error: "resilience.validation.meterStop" })),
  },
  { error: "resilience.validation.body" },
);
