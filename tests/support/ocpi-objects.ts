/** OCPI 2.2.1 objects as a CPO sends them, for the roaming tests in the Workers runtime and in the browser. */

/** A location of the CPO DE*CPO with one EVSE `E1` and its connector `1` (OCPI 2.2.1 §8.3.1). */
export const ocpiLocation = (id: string, overrides: Record<string, unknown> = {}) => ({
  country_code: "DE",
  party_id: "CPO",
  id,
  publish: true,
  name: "Hauptbahnhof",
  address: "Europaplatz 1",
  city: "Berlin",
  country: "DEU",
  coordinates: { latitude: "52.52500", longitude: "13.36940" },
  time_zone: "Europe/Berlin",
  evses: [
    {
      uid: "E1",
      evse_id: "DE*CPO*E1",
      status: "AVAILABLE",
      connectors: [{ id: "1", standard: "IEC_62196_T2", format: "SOCKET", power_type: "AC_3_PHASE", max_voltage: 400, max_amperage: 32, last_updated: "2026-05-01T10:00:00Z" }],
      last_updated: "2026-05-01T10:00:00Z",
    },
  ],
  last_updated: "2026-05-01T10:00:00Z",
  ...overrides,
});

/** An ACTIVE session of the CPO DE*CPO at `L1`/`E1`/`1` for our token `CARD1` as PL*PLG (OCPI 2.2.1 §9.3.1). */
export const ocpiSession = (id: string, overrides: Record<string, unknown> = {}) => ({
  country_code: "DE",
  party_id: "CPO",
  id,
  start_date_time: "2026-05-02T08:00:00Z",
  kwh: 0,
  cdr_token: { country_code: "PL", party_id: "PLG", uid: "CARD1", type: "RFID", contract_id: "PL-PLG-CCARD1" },
  auth_method: "AUTH_REQUEST",
  location_id: "L1",
  evse_uid: "E1",
  connector_id: "1",
  currency: "EUR",
  status: "ACTIVE",
  last_updated: "2026-05-02T08:00:00Z",
  ...overrides,
});
