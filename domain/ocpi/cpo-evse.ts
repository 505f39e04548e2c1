/**
 * How our points and connectors are named on the OCPI wire as a CPO (docs/rules/ocpi.md
 * "Partners' drivers at our chargers"): a location is a station (`location_id` = the station's
 * id), an EVSE is one connector of a point (each OCPP 1.6 connector, each 2.0.1 EVSE, charges one
 * vehicle at a time: OCPI 2.2.1 §8.3.2), its `uid` `<point id>*<connector number>`, its one
 * connector `1`; its eMI3 EVSE id is `<country>*<party>*E<point id>*<connector number>`.
 */
export const evseUidOf = (pointId: number, connectorNo: number) => `${pointId}*${connectorNo}`;

export const evseIdOf = (countryCode: string, partyId: string, pointId: number, connectorNo: number) => `${countryCode}*${partyId}*E${pointId}*${connectorNo}`;

/** The point and connector an EVSE uid names, or null when it is not one of ours. */
export function pointOfEvseUid(uid: string): { pointId: number; connectorNo: number } | null {
  const match = /^([1-9][0-9]{0,14})\*([1-9][0-9]{0,2})$/.exec(uid);
  return match ? { pointId: Number(match[1]), connectorNo: Number(match[2]) } : null;
}

/** The one connector of each EVSE. */
export const CONNECTOR_ID = "1";
