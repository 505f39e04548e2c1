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
