/**
 * Roles on the OCPI wire (docs/rules/ocpi.md "CPO role", OCPI 2.2.1 §16.4.1 Role): the roles an
 * operator takes (`ocpi.roles` in its parameter settings) and the role of each partner connection,
 * which decides which of our modules its token reaches.
 */

/** The roles an operator may take towards its partners. */
export const OPERATOR_ROLES = ["CPO", "EMSP"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** An operator that never chose roams as an eMSP only, as before the CPO role existed. */
export const DEFAULT_OPERATOR_ROLES: OperatorRole[] = ["EMSP"];

/** The role of a partner connection: a CPO, an eMSP or a hub. */
export const PARTNER_ROLES = ["CPO", "EMSP", "HUB"] as const;
export type PartnerRole = (typeof PARTNER_ROLES)[number];

/**
 * Our modules are of one of our two sides: the eMSP side (our receivers of what CPOs send, our
 * senders of tokens and commands) or the CPO side (our senders of locations, tariffs, sessions and
 * CDRs, our receivers of tokens and commands).
 */
export type OurSide = OperatorRole;

/**
 * Which partners may call a side: a CPO calls our eMSP side, an eMSP our CPO side, a hub both
 * (it relays for parties of either role).
 */
export const CALLERS_OF: Record<OurSide, readonly PartnerRole[]> = {
  EMSP: ["CPO", "HUB"],
  CPO: ["EMSP", "HUB"],
};

export const mayCall = (partner: PartnerRole, side: OurSide) => CALLERS_OF[side].includes(partner);

/**
 * The role a partner registers as, from its credentials (OCPI 2.2.1 §7.3.1 CredentialsRole; one
 * platform may carry several): the role its platform was entered with when they name it; HUB when
 * they name a hub (a hub relays for CPOs and eMSPs alike, so one entered as a CPO, the default,
 * is taken as the hub it is); otherwise none, and the registration is refused.
 */
export function roleFromCredentials(entered: PartnerRole, roles: readonly { role: string }[]): PartnerRole | null {
  if (roles.some((r) => r.role === entered)) return entered;
  return roles.some((r) => r.role === "HUB") ? "HUB" : null;
}
