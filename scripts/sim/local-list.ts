import { tagKey } from "../../domain/local-list";
import type { IdTagInfo, OcppRequest, OcppResponse } from "../../domain/ocpp";

type AuthorizationData = NonNullable<OcppRequest<"SendLocalList">["localAuthorizationList"]>[number];

/** The configuration keys that decide whether a charger goes by its local list (OCPP 1.6 §9.1). */
export interface LocalAuthSettings {
  /** LocalAuthListEnabled. */
  enabled: boolean;
  /** LocalPreAuthorize: a listed Accepted tag starts at once, without Authorize. */
  preAuthorize: boolean;
  /** LocalAuthorizeOffline: offline, the listed tags are accepted as the list says. */
  authorizeOffline: boolean;
  /** AllowOfflineTxForUnknownId: offline, a tag the list does not hold may charge too. */
  allowUnknownOffline: boolean;
}

/**
 * A charger's local authorization list (OCPP 1.6 §3.5.3, §5.15): what SendLocalList puts there,
 * its version for GetLocalListVersion, and the answer the charger goes by without asking the
 * central system.
 */
export class LocalList {
  private readonly entries = new Map<string, AuthorizationData>();
  private current = 0;

  get version() {
    return this.current;
  }

  /** SendLocalList: Full replaces the list, Differential updates it (an entry without idTagInfo leaves it); an old Differential is a VersionMismatch. */
  apply({ listVersion, updateType, localAuthorizationList = [] }: OcppRequest<"SendLocalList">): OcppResponse<"SendLocalList"> {
    if (updateType === "Differential" && listVersion <= this.current) return { status: "VersionMismatch" };
    if (updateType === "Full") this.entries.clear();
    for (const entry of localAuthorizationList) {
      if (entry.idTagInfo) this.entries.set(tagKey(entry.idTag), entry);
      else this.entries.delete(tagKey(entry.idTag));
    }
    this.current = listVersion;
    return { status: "Accepted" };
  }

  /** The list's answer for a tag, an expiry past `now` making it Expired; undefined when not listed. */
  private listed(idTag: string, now: number): IdTagInfo | undefined {
    const info = this.entries.get(tagKey(idTag))?.idTagInfo;
    if (!info) return undefined;
    if (info.status === "Accepted" && info.expiryDate && Date.parse(info.expiryDate) <= now) return { ...info, status: "Expired" };
    return info;
  }

  /**
   * What the charger decides by itself (OCPP 1.6 §3.5): online, only a listed Accepted tag with
   * LocalPreAuthorize starts at once; offline, with LocalAuthorizeOffline, the list answers, and a
   * tag it does not hold is Invalid unless AllowOfflineTxForUnknownId. Undefined: ask the central
   * system with Authorize.
   */
  decide(idTag: string, online: boolean, settings: LocalAuthSettings, now: number): IdTagInfo | undefined {
    const info = settings.enabled ? this.listed(idTag, now) : undefined;
    if (online) return settings.preAuthorize && info?.status === "Accepted" ? info : undefined;
    if (info && settings.authorizeOffline) return info;
    return { status: settings.allowUnknownOffline ? "Accepted" : "Invalid" };
  }
}
