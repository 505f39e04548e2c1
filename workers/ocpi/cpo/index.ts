import type { OcpiModule } from "../roles";
import { locationsSender } from "./locations";
import { tariffsSender } from "./tariffs";
import { cpoCdrsModule } from "./cdrs";
import { cpoChargingProfilesModule, cpoCommandsModule } from "./commands";
import { cpoSessionsModule } from "./sessions";
import { cpoTokensModule } from "./tokens";

/**
 * Our CPO modules (docs/rules/ocpi.md "CPO role"; docs/decisions/0082-ocpi-role-gate.md): each
 * mounted at `/ocpi/2.2.1/cpo/<identifier>` and listed in our version details to the partners
 * that may call it. A module is added here by one line.
 */
export const CPO_MODULES: readonly OcpiModule[] = [locationsSender, tariffsSender, cpoTokensModule, cpoCommandsModule, cpoChargingProfilesModule, cpoSessionsModule, cpoCdrsModule];
