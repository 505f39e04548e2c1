import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OCPP_REQUESTS } from "../../domain/ocpp";
import { boot, bootedCharger, connect, type TestCharger } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { eventually, makeSite } from "./support/operations";

/**
 * The OCPP 1.6 security extension (edition 3) on a raw 1.6 charger, and security events on both
 * protocols (docs/rules/ocpp.md "Security extension"). What the server sends is checked against
 * the extension's schemas as domain/ocpp/schemas.ts transcribes them (tests/unit/ocpp/schemas.test.ts
 * checks that transcription against the official JSON).
 */

const now = () => new Date().toISOString();

/** A self-signed P-256 root made with `openssl req -x509` for these tests. */
const ROOT_PEM = `-----BEGIN CERTIFICATE-----
MIIBtDCCAVugAwIBAgIUFMlYMQvpUyTl2uEaG+PzLT0+738wCgYIKoZIzj0EAwIw
MDEbMBkGA1UEAwwSUGx1Z2Rlc2sgVGVzdCBSb290MREwDwYDVQQKDAhQbHVnZGVz
azAeFw0yNjExMjkwMzExMzVaFw0zNjExMjYwMzExMzVaMDAxGzAZBgNVBAMMElBs
dWdkZXNrIFRlc3QgUm9vdDERMA8GA1UECgwIUGx1Z2Rlc2swWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAAQUf6GVr1gZJNMEMH0r0a2MprfpM6/hM/HpJemTJXlj4WNz
1nAGBnvekZt/kwm+5woEVfhCME2Xyieyydeuw027o1MwUTAdBgNVHQ4EFgQUs0yR
sntE6Q3H+GqVcavbOdGF6EUwHwYDVR0jBBgwFoAUs0yRsntE6Q3H+GqVcavbOdGF
6EUwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiBUMW/6VtS5G2bb
kWkz2tu6FUh50Gn1qfiknTgi8xyrQwIgJq9fYH1wP30frNN02kEhx4XDInylDjkZ
EWB5fWpNF0M=
-----END CERTIFICATE-----`;

/** The root's CertID as `openssl ocsp -sha256 -issuer root.pem -cert root.pem -req_text` prints it. */
const ROOT_HASH_DATA = {
  hashAlgorithm: "SHA256",
  issuerNameHash: "DA13F30C4E5C1FDB1068D695C9A3DBEBBC801A35F4EC7A5BF469F31DB685EA9F",
  issuerKeyHash: "9A9CAF884536844BAC9F15CC209BF48322174A44F6AE586CEC6036450635AA06",
  serialNumber: "14C958310BE95324E5DAE11A1BE3F32D3D3EEF7F",
};

async function online() {
  return { ...(await bootedCharger("0PL002")), token: await tokenFor("0PL002", "demoadmin") };
}

/** Answers `action` with `reply` and keeps each request it got, checked against the extension's request schema. */
function answering(charger: TestCharger, action: keyof typeof OCPP_REQUESTS, reply: (payload: any) => unknown) {
  const received: unknown[] = [];
  charger.answer(action, (payload) => {
    const checked = OCPP_REQUESTS[action].safeParse(payload);
    received.push(checked.success ? payload : { invalid: checked.error.issues });
    return reply(payload);
  });
  return received;
}

const alarmsOf = async (pointId: number) =>
  (await env.DB.prepare("SELECT connector_no AS connectorNo, level, type, message, status FROM alarms WHERE point_id = ? ORDER BY id").bind(pointId).all()).results;

const securityEventsOf = async (pointId: number) =>
  (await env.DB.prepare("SELECT status, detail FROM point_events WHERE point_id = ? AND kind = 'SecurityEvent' ORDER BY id").bind(pointId).all<{ status: string; detail: string }>()).results.map(
    (r) => ({ type: r.status, ...JSON.parse(r.detail) }),
  );

const command = (token: string, pointId: number, action: string, payload: unknown) => call("POST", `/station-service/point/${pointId}/command`, { token, body: { action, payload } });

describe("security events (1.6 security extension §4.5, 2.0.1 A04)", () => {
  it("keeps every event of a 1.6 charger and raises a critical one as an alarm on the point, once while it is open", async () => {
    const { charger, pointId } = await online();
    expect(await charger.call("SecurityEventNotification", { type: "InvalidMessages", timestamp: now(), techInfo: "bad frame from 10.0.0.7" })).toEqual({});
    expect(await alarmsOf(pointId)).toEqual([]);

    expect(await charger.call("SecurityEventNotification", { type: "TamperDetectionActivated", timestamp: now(), techInfo: "door open" })).toEqual({});
    await charger.call("SecurityEventNotification", { type: "TamperDetectionActivated", timestamp: now() });
    expect(await alarmsOf(pointId)).toEqual([{ connectorNo: 0, level: "ERROR", type: "TamperDetectionActivated", message: "door open", status: "Undisposed" }]);
    await charger.call("SecurityEventNotification", { type: "ResetOrReboot", timestamp: now() });
    expect((await alarmsOf(pointId)).map((a) => [a.type, a.level])).toEqual([
      ["TamperDetectionActivated", "ERROR"],
      ["ResetOrReboot", "WARN"],
    ]);
    expect((await securityEventsOf(pointId)).map((e) => [e.type, e.critical, e.version])).toEqual([
      ["InvalidMessages", false, "1.6"],
      ["TamperDetectionActivated", true, "1.6"],
      ["TamperDetectionActivated", true, "1.6"],
      ["ResetOrReboot", true, "1.6"],
    ]);
    charger.close();
  });

  it("raises the same alarm for a 2.0.1 station's critical event", async () => {
    const made = await makeCharger("0PL002", { type: "DC" });
    const charger = (await connect(made.serialNumber, { key: made.key, protocols: "ocpp2.0.1" })).charger!;
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
    expect(await charger.call("SecurityEventNotification", { type: "MemoryExhaustion", timestamp: now(), techInfo: "heap 98%" })).toEqual({});
    await charger.call("SecurityEventNotification", { type: "FailedToAuthenticateAtCsms", timestamp: now() });
    expect(await alarmsOf(made.pointId)).toEqual([{ connectorNo: 0, level: "ERROR", type: "MemoryExhaustion", message: "heap 98%", status: "Undisposed" }]);
    expect((await securityEventsOf(made.pointId)).map((e) => [e.type, e.critical, e.version])).toEqual([
      ["MemoryExhaustion", true, "2.0.1"],
      ["FailedToAuthenticateAtCsms", false, "2.0.1"],
    ]);
    charger.close();
  });

  it("answers a malformed security message with the 1.6 error of its fault", async () => {
    const { charger } = await online();
    const refusal = (action: string, payload: unknown) => charger.call(action, payload).then(() => null, (error: { code: string }) => error.code);
    expect(await refusal("SecurityEventNotification", { type: "StartupOfTheDevice" })).toBe("OccurenceConstraintViolation");
    expect(await refusal("SecurityEventNotification", { type: "X".repeat(51), timestamp: now() })).toBe("PropertyConstraintViolation");
    expect(await refusal("LogStatusNotification", { status: "UploadFailed" })).toBe("PropertyConstraintViolation");
    expect(await refusal("SignedFirmwareStatusNotification", { status: "Installed", requestId: "7" })).toBe("TypeConstraintViolation");
    expect(await refusal("SignCertificate", { csr: "x", certificateType: "ChargePointCertificate" })).toBe("PropertyConstraintViolation");
    charger.close();
  });
});

describe("the extension's commands (edition 3 §5) through /command", () => {
  it("sends GetLog as a recorded diagnostics request that LogStatusNotification moves, as DiagnosticsStatusNotification does", async () => {
    const { charger, pointId, token } = await online();
    const received = answering(charger, "GetLog", () => ({ status: "Accepted", filename: "security.log" }));
    const payload = { logType: "SecurityLog", requestId: 7, log: { remoteLocation: "https://logs.example.com/upload", oldestTimestamp: "2026-11-01T00:00:00Z" } };
    const res = await command(token, pointId, "GetLog", payload);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: "Accepted", filename: "security.log" });
    expect(received).toEqual([payload]);
    const requests = async () => (await call("GET", `/station-service/diagnosis?pointId=${pointId}`, { token })).body.data.records as { status: number; fileName: string; location: string }[];
    expect(await requests()).toEqual([expect.objectContaining({ status: 1, fileName: "security.log", location: "https://logs.example.com/upload" })]);
    await charger.call("LogStatusNotification", { status: "Uploading", requestId: 7 });
    expect((await requests())[0].status).toBe(2);
    await charger.call("LogStatusNotification", { status: "Uploaded", requestId: 7 });
    expect((await requests())[0].status).toBe(3);
    charger.close();
  });

  it("checks each command's payload before it goes out and each reply as it comes back", async () => {
    const { charger, pointId, token } = await online();
    const received = answering(charger, "ExtendedTriggerMessage", () => ({ status: "Accepted" }));
    expect((await command(token, pointId, "ExtendedTriggerMessage", { requestedMessage: "SignChargePointCertificate" })).body.data).toEqual({ status: "Accepted" });
    expect(received).toEqual([{ requestedMessage: "SignChargePointCertificate" }]);
    // 1.6's DiagnosticsStatusNotification is not in the extension's trigger list.
    const wrong = await command(token, pointId, "ExtendedTriggerMessage", { requestedMessage: "DiagnosticsStatusNotification" });
    expect(wrong.status).toBe(400);
    expect(received).toHaveLength(1);
    // Edition 3 requires the signature and its certificate.
    expect((await command(token, pointId, "SignedUpdateFirmware", { requestId: 1, firmware: { location: "https://fw.example.com/2.bin", retrieveDateTime: now() } })).status).toBe(400);
    charger.answer("SignedUpdateFirmware", () => ({ status: "Installed" }));
    const badReply = await command(token, pointId, "SignedUpdateFirmware", { requestId: 1, firmware: { location: "https://fw.example.com/2.bin", retrieveDateTime: now(), signingCertificate: ROOT_PEM, signature: "c2ln" } });
    expect(badReply.status).toBe(409);
    expect(badReply.body.data).toMatchObject({ code: "PropertyConstraintViolation" });
    charger.close();
  });

  it("moves a firmware rollout with SignedFirmwareStatusNotification as with FirmwareStatusNotification", { timeout: 30_000 }, async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const [point] = (await makeSite("0PL002", { count: 1 })).chargers;
    const charger = (await connect(point.serialNumber, { key: point.key })).charger!;
    await boot(charger);
    charger.answer("UpdateFirmware", () => ({}));
    const version = `9.${Date.now() % 100000}.1`;
    const created = await call("POST", "/maintain-service/firmware", {
      token,
      body: { version, location: "ftp://firmware.example.com/plugdesk/fw.bin", retries: 1, retryIntervalS: 60, retrieveDate: "2025-01-01T00:00:00Z", description: "signed" },
    });
    const id = created.body.data.id;
    await call("POST", `/maintain-service/firmware/${id}/issue`, { token, body: { pointIds: [point.pointId] } });
    await eventually(() => call("GET", `/maintain-service/firmware/${id}`, { token }), (res) => res.body.data.rollout[0].delivery === "Sent");
    await charger.call("SignedFirmwareStatusNotification", { status: "SignatureVerified", requestId: 3 });
    expect((await call("GET", `/maintain-service/firmware/${id}`, { token })).body.data.rollout[0].status).toBe("Installing");
    await charger.call("SignedFirmwareStatusNotification", { status: "InvalidSignature", requestId: 3 });
    expect((await call("GET", `/maintain-service/firmware/${id}`, { token })).body.data.rollout[0].status).toBe("InstallationFailed");
    const kept = await env.DB.prepare("SELECT firmware_status AS s FROM points WHERE id = ?").bind(point.pointId).first<{ s: string }>();
    expect(kept!.s).toBe("InvalidSignature");
    charger.close();
  });
});

describe("charge-point certificates (edition 3 §4.2, §4.3)", () => {
  it("stores an uploaded root sealed, installs it, shows it among the point's certificates by name, and deletes it from the charger", async () => {
    const { charger, pointId, token } = await online();
    const uploaded = await call("POST", "/station-service/certificate", { token, body: { certificateType: "CentralSystemRootCertificate", pem: ROOT_PEM } });
    expect(uploaded.status).toBe(200);
    const root = uploaded.body.data;
    expect(root).toMatchObject({
      name: "Plugdesk Test Root",
      certificateType: "CentralSystemRootCertificate",
      serialNumber: ROOT_HASH_DATA.serialNumber.toLowerCase(),
      issuerNameHash: ROOT_HASH_DATA.issuerNameHash.toLowerCase(),
      issuerKeyHash: ROOT_HASH_DATA.issuerKeyHash.toLowerCase(),
      notAfter: "2036-11-26T03:11:35Z",
    });
    const operatorId = (await env.DB.prepare("SELECT operator_id AS id FROM points WHERE id = ?").bind(pointId).first<{ id: number }>())!.id;
    const stored = await env.FILES.get(`secure/operators/${operatorId}/root-certificates/${root.fingerprint}`);
    expect(new TextDecoder().decode(await stored!.arrayBuffer())).not.toContain("BEGIN CERTIFICATE");
    expect((await call("GET", "/station-service/certificate", { token })).body.data).toContainEqual(root);

    const installs = answering(charger, "InstallCertificate", () => ({ status: "Accepted" }));
    const installed = await call("POST", `/station-service/point/${pointId}/certificates/install`, { token, body: { fingerprint: root.fingerprint } });
    expect(installed.body.data).toEqual({ status: "Accepted" });
    expect(installs).toEqual([{ certificateType: "CentralSystemRootCertificate", certificate: ROOT_PEM }]);

    const asked = answering(charger, "GetInstalledCertificateIds", (p: { certificateType: string }) =>
      p.certificateType === "CentralSystemRootCertificate" ? { status: "Accepted", certificateHashData: [ROOT_HASH_DATA] } : { status: "NotFound" },
    );
    const refreshed = await call("PUT", `/station-service/point/${pointId}/certificates`, { token });
    expect(refreshed.status).toBe(200);
    expect(asked).toEqual([{ certificateType: "CentralSystemRootCertificate" }, { certificateType: "ManufacturerRootCertificate" }]);
    expect(refreshed.body.data.installed).toEqual([{ certificateType: "CentralSystemRootCertificate", ...ROOT_HASH_DATA, fingerprint: root.fingerprint, name: "Plugdesk Test Root" }]);
    const shown = await call("GET", `/station-service/point/${pointId}/certificates`, { token });
    expect(shown.body.data).toEqual(refreshed.body.data);
    expect(typeof shown.body.data.askedAt).toBe("string");

    const deletes = answering(charger, "DeleteCertificate", () => ({ status: "Accepted" }));
    const deleted = await call("POST", `/station-service/point/${pointId}/certificates/delete`, { token, body: { certificateHashData: ROOT_HASH_DATA } });
    expect(deleted.body.data).toEqual({ status: "Accepted" });
    expect(deletes).toEqual([{ certificateHashData: ROOT_HASH_DATA }]);

    expect((await call("DELETE", `/station-service/certificate/${root.fingerprint}`, { token })).status).toBe(200);
    expect(await env.FILES.get(`secure/operators/${operatorId}/root-certificates/${root.fingerprint}`)).toBeNull();
    charger.close();
  });

  it("sends a 2.0.1 station the same actions as 2.0.1's messages (M03–M05)", async () => {
    const made = await makeCharger("0PL002", { type: "DC" });
    const charger = (await connect(made.serialNumber, { key: made.key, protocols: "ocpp2.0.1" })).charger!;
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
    const token = await tokenFor("0PL002", "demoadmin");
    const root = (await call("POST", "/station-service/certificate", { token, body: { certificateType: "CentralSystemRootCertificate", pem: ROOT_PEM } })).body.data;
    const installs: unknown[] = [];
    charger.answer("InstallCertificate", (payload) => {
      installs.push(payload);
      return { status: "Accepted" };
    });
    expect((await call("POST", `/station-service/point/${made.pointId}/certificates/install`, { token, body: { fingerprint: root.fingerprint } })).body.data).toEqual({ status: "Accepted" });
    expect(installs).toEqual([{ certificateType: "CSMSRootCertificate", certificate: ROOT_PEM }]);
    const asked: unknown[] = [];
    charger.answer("GetInstalledCertificateIds", (payload: { certificateType: string[] }) => {
      asked.push(payload);
      return payload.certificateType[0] === "CSMSRootCertificate"
        ? { status: "Accepted", certificateHashDataChain: [{ certificateType: "CSMSRootCertificate", certificateHashData: ROOT_HASH_DATA }] }
        : { status: "NotFound" };
    });
    const refreshed = await call("PUT", `/station-service/point/${made.pointId}/certificates`, { token });
    expect(asked).toEqual([{ certificateType: ["CSMSRootCertificate"] }, { certificateType: ["ManufacturerRootCertificate"] }]);
    expect(refreshed.body.data.installed).toEqual([{ certificateType: "CentralSystemRootCertificate", ...ROOT_HASH_DATA, fingerprint: root.fingerprint, name: "Plugdesk Test Root" }]);
    charger.close();
  });

  it("refuses what is not one PEM certificate within InstallCertificate's 5500 characters, and a charger's refusal is a 409", async () => {
    const { charger, pointId, token } = await online();
    const upload = (pem: string) => call("POST", "/station-service/certificate", { token, body: { certificateType: "ManufacturerRootCertificate", pem } });
    expect((await upload("hello")).status).toBe(400);
    expect((await upload(ROOT_PEM.replace("MIIBtDCC", "MIIBtDCD"))).status).toBe(400);
    expect((await upload(`${ROOT_PEM}\n${ROOT_PEM}`)).status).toBe(400);
    const long = `-----BEGIN CERTIFICATE-----\n${"A".repeat(5480)}\n-----END CERTIFICATE-----`;
    expect((await upload(long)).status).toBe(400);
    const root = (await upload(ROOT_PEM)).body.data;
    charger.answer("InstallCertificate", () => ({ status: "Rejected" }));
    const refused = await call("POST", `/station-service/point/${pointId}/certificates/install`, { token, body: { fingerprint: root.fingerprint } });
    expect(refused.status).toBe(409);
    expect((await call("POST", `/station-service/point/${pointId}/certificates/install`, { token, body: { fingerprint: "0".repeat(64) } })).status).toBe(404);
    charger.close();
  });

  it("accepts a charger's signing request, keeps it for the operator, and sends the signed chain with CertificateSigned", async () => {
    const { charger, pointId, token } = await online();
    const csr = "-----BEGIN CERTIFICATE REQUEST-----\nMIIBCzCBsgIBADA...\n-----END CERTIFICATE REQUEST-----";
    expect(await charger.call("SignCertificate", { csr })).toEqual({ status: "Accepted" });
    const shown = await call("GET", `/station-service/point/${pointId}/certificates`, { token });
    expect(shown.body.data.signingRequests).toEqual([{ csr, receivedAt: expect.any(String) }]);
    const signed = answering(charger, "CertificateSigned", () => ({ status: "Accepted" }));
    const res = await command(token, pointId, "CertificateSigned", { certificateChain: ROOT_PEM });
    expect(res.body.data).toEqual({ status: "Accepted" });
    expect(signed).toEqual([{ certificateChain: ROOT_PEM }]);
    charger.close();
  });

  it("answers another operator's point and root with 404, and an account whose menus only watch with 403", async () => {
    const { pointId, token } = await online();
    const root = (await call("POST", "/station-service/certificate", { token, body: { certificateType: "CentralSystemRootCertificate", pem: ROOT_PEM } })).body.data;
    const other = await tokenFor("0DE001", "deadmin1");
    for (const res of await Promise.all([
      call("GET", `/station-service/point/${pointId}/certificates`, { token: other }),
      call("PUT", `/station-service/point/${pointId}/certificates`, { token: other }),
      call("POST", `/station-service/point/${pointId}/certificates/install`, { token: other, body: { fingerprint: root.fingerprint } }),
      call("DELETE", `/station-service/certificate/${root.fingerprint}`, { token: other }),
    ])) {
      expect(res.status).toBe(404);
    }
    expect((await call("GET", "/station-service/certificate", { token: other })).body.data).not.toContainEqual(root);
    const role = await makeRole(token, { menuCodes: ["operation.historicalAlarmInfo"] });
    const account = await makeAccount("0PL002", token, role.id);
    const watcher = await tokenFor("0PL002", account.username, account.password);
    expect((await call("GET", "/station-service/certificate", { token: watcher })).status).toBe(403);
    expect((await call("POST", "/station-service/certificate", { token: watcher, body: { certificateType: "CentralSystemRootCertificate", pem: ROOT_PEM } })).status).toBe(403);
  });
});
