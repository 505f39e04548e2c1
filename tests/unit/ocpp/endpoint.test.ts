import { describe, expect, it } from "vitest";
import { chargerEndpoint, securityProfileOf } from "../../../domain/ocpp/endpoint";

describe("where a charger connects", () => {
  it("uses wss behind https and ws behind http, on the host the console is reached at", () => {
    expect(chargerEndpoint({ protocol: "https:", host: "ev.example.pl" }, "0PL002", "PL002-CP01")).toBe("wss://ev.example.pl/ocpp/0PL002/PL002-CP01");
    expect(chargerEndpoint({ protocol: "http:", host: "127.0.0.1:8787" }, "0PL002", "PL002-CP01")).toBe("ws://127.0.0.1:8787/ocpp/0PL002/PL002-CP01");
  });

  it("escapes a serial number that is not URL-safe", () => {
    expect(chargerEndpoint({ protocol: "https:", host: "h" }, "0DE001", "CP 1/A")).toBe("wss://h/ocpp/0DE001/CP%201%2FA");
  });

  it("asks for security profile 2 over TLS and 1 without", () => {
    expect(securityProfileOf("wss://h/ocpp/0PL002/X")).toBe(2);
    expect(securityProfileOf("ws://h/ocpp/0PL002/X")).toBe(1);
  });
});
