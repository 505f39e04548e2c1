/**
 * Where a charger connects (docs/rules/ocpp.md): `ws(s)://<host>/ocpp/<operatorCode>/<serialNumber>`,
 * over TLS exactly when the console itself is served over https, on the host the console is
 * reached at.
 */
export function chargerEndpoint(console: { protocol: string; host: string }, operatorCode: string, serialNumber: string): string {
  const scheme = console.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${console.host}/ocpp/${encodeURIComponent(operatorCode)}/${encodeURIComponent(serialNumber)}`;
}

/**
 * OCPP 1.6 security whitepaper: profile 1 is HTTP Basic authentication without TLS, profile 2
 * the same over TLS. The endpoint's scheme decides which one the charger must use.
 */
export const securityProfileOf = (endpoint: string): 1 | 2 => (endpoint.startsWith("wss://") ? 2 : 1);

/** The WebSocket subprotocol of each version (OCPP-J 1.6 §3.1.2; OCPP 2.0.1 Part 4 §3.1.2). */
export const SUBPROTOCOLS = { "1.6": "ocpp1.6", "2.0.1": "ocpp2.0.1" } as const satisfies Record<"1.6" | "2.0.1", string>;

/**
 * The subprotocols a point admits, newer first, as its `ocppVersion` says (docs/rules/ocpp.md
 * "Connection"): AUTO takes either, OCPP16 and OCPP201 only their own.
 */
export function admittedSubprotocols(admitted: "AUTO" | "OCPP16" | "OCPP201"): string[] {
  if (admitted === "OCPP16") return [SUBPROTOCOLS["1.6"]];
  if (admitted === "OCPP201") return [SUBPROTOCOLS["2.0.1"]];
  return [SUBPROTOCOLS["2.0.1"], SUBPROTOCOLS["1.6"]];
}

/** The short address, without the operator's code: the serial number alone names the charger. */
export function shortChargerEndpoint(console: { protocol: string; host: string }, serialNumber: string): string {
  const scheme = console.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${console.host}/ocpp/${encodeURIComponent(serialNumber)}`;
}
