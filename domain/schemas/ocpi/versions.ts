import { z } from "zod";
import { ciString } from "./common";

/** Versions and version details (OCPI 2.2.1 §6). */
export const VERSION_NUMBERS = ["2.0", "2.1", "2.1.1", "2.2", "2.2.1"] as const;
export const OUR_VERSION = "2.2.1";

export const MODULE_IDS = ["cdrs", "chargingprofiles", "commands", "credentials", "hubclientinfo", "locations", "sessions", "tariffs", "tokens"] as const;
export type ModuleId = (typeof MODULE_IDS)[number];

export const version = z.strictObject({ version: z.enum(VERSION_NUMBERS), url: z.url() });
/** A partner's list may name versions we do not know: those are skipped, not refused. */
export const versionList = z.array(z.object({ version: ciString(10), url: z.url() }));

/** An endpoint of a partner's version details: fields 2.2.1 does not define are dropped (the row keeps 2.2.1's). */
export const endpoint = z.object({ identifier: z.enum(MODULE_IDS), role: z.enum(["SENDER", "RECEIVER"]), url: z.url() });
export const versionDetails = z.object({ version: ciString(10), endpoints: z.array(z.object({ identifier: z.string(), role: z.string(), url: z.url() })) });
export type Endpoint = z.infer<typeof endpoint>;
