import { tagKey } from "../../domain/local-list";
import type { Ocpp201Request, Ocpp201Response } from "../../domain/ocpp/v201";

type AuthorizationData = NonNullable<Ocpp201Request<"SendLocalList">["localAuthorizationList"]>[number];
export type IdToken201 = AuthorizationData["idToken"];
export type IdTokenInfo201 = NonNullable<AuthorizationData["idTokenInfo"]>;

/** The device model variables that decide whether a station goes by its local list (OCPP 2.0.1 Part 2 C13, D01). */
export interface LocalAuthSettings201 {
  /** LocalAuthListCtrlr.Enabled. */
  enabled: boolean;
  /** AuthCtrlr.LocalPreAuthorize: a listed Accepted token starts at once, without Authorize. */
  preAuthorize: boolean;
  /** AuthCtrlr.LocalAuthorizeOffline: offline, the listed tokens are accepted as the list says. */
  authorizeOffline: boolean;
  /** AuthCtrlr.OfflineTxForUnknownIdEnabled: offline, a token the list does not hold may charge too. */
  allowUnknownOffline: boolean;
}

/** A token is its value, case-insensitively, and its type (Part 2, IdTokenType). */
const tokenKey = (token: IdToken201) => `${token.type}:${tagKey(token.idToken)}`;

/**
 * A Charging Station's local authorization list (OCPP 2.0.1 Part 2 D01–D02): what SendLocalList
 * puts there, its version for GetLocalListVersion, and what the station decides by itself; the
 * 1.6 twin is local-list.ts.
 */
export class LocalList201 {
  private readonly entries = new Map<string, IdTokenInfo201>();
  private current = 0;

  get version() {
    return this.current;
  }

  get size() {
    return this.entries.size;
  }

  /**
   * SendLocalList: Full replaces the list, Differential updates it (an entry without idTokenInfo
   * leaves it); a Differential not newer than the list held is a VersionMismatch, and version 0
   * is not a list (0 means "no list", D01).
   */
  apply({ versionNumber, updateType, localAuthorizationList = [] }: Ocpp201Request<"SendLocalList">): Ocpp201Response<"SendLocalList"> {
    if (versionNumber <= 0) return { status: "Failed", statusInfo: { reasonCode: "InvalidValue" } };
    if (updateType === "Differential" && versionNumber <= this.current) return { status: "VersionMismatch" };
    if (updateType === "Full") this.entries.clear();
    for (const { idToken, idTokenInfo } of localAuthorizationList) {
      if (idTokenInfo) this.entries.set(tokenKey(idToken), idTokenInfo);
      else this.entries.delete(tokenKey(idToken));
    }
    this.current = versionNumber;
    return { status: "Accepted" };
  }

  /** The list's answer for a token, a past cacheExpiryDateTime making it Expired; undefined when not listed. */
  private listed(token: IdToken201, now: number): IdTokenInfo201 | undefined {
    const info = this.entries.get(tokenKey(token));
    if (!info) return undefined;
    if (info.status === "Accepted" && info.cacheExpiryDateTime && Date.parse(info.cacheExpiryDateTime) <= now) return { ...info, status: "Expired" };
    return info;
  }

  /**
   * What the station decides without the CSMS (C13, C15): online, only a listed Accepted token
   * with LocalPreAuthorize starts at once; offline, with LocalAuthorizeOffline, the list answers,
   * and a token it does not hold is Invalid unless OfflineTxForUnknownIdEnabled. Undefined: ask
   * the CSMS with Authorize.
   */
  decide(token: IdToken201, online: boolean, settings: LocalAuthSettings201, now: number): IdTokenInfo201 | undefined {
    const info = settings.enabled ? this.listed(token, now) : undefined;
    if (online) return settings.preAuthorize && info?.status === "Accepted" ? info : undefined;
    if (info && settings.authorizeOffline) return info;
    return { status: settings.allowUnknownOffline ? "Accepted" : "Invalid" };
  }
}
